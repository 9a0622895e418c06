// The engine of bigtwo._core: a round's play phase on 64-bit card masks, driven by tables that Python compiles from a Ruleset
// (bigtwo.native). The pure-Python engine is the reference; tests/test_native.py compares the two bit for bit.
//
// Nothing here knows a preset or a rule text: the kinds below are combination *shapes* (a pair is two cards of
// one rank), and every number that decides what a shape is worth, what beats what and how a trick or a round
// ends comes from the tables. Card i is bit i: rank * 4 + suit for the 52 ranked cards, 52 and 53 the jokers.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace py = pybind11;
using u64 = std::uint64_t;
using i64 = std::int64_t;

namespace bigtwo {

// combination shapes; the numbers are bigtwo.native.SHAPES's
enum Shape : int {
    SINGLE = 0, PAIR, TRIPLE, QUAD, TWO_PAIRS, STRAIGHT, STRAIGHT_FLUSH, ROYAL_FLUSH, FLUSH, FULL_HOUSE,
    FOUR_OF_A_KIND, TWO_PAIR_JUNK, SISTERS, TRIPLE_JUNK, PAIR_STRAIGHT, TRIPLE_STRAIGHT, JOKER_PAIR, NSHAPES
};
// bomb targets (bit flags, bigtwo.native.BOMB_TARGET_BITS)
enum Target : int { T_ANY = 1, T_SINGLES_PAIRS = 2, T_HIGHEST_SINGLE = 4, T_SINGLE_TWO = 8, T_PAIR_TWOS = 16, T_THREE_TWOS = 32 };
// last-play restrictions (bigtwo.native.FORBID)
enum Forbid : int { F_NONE = 0, F_TWO_SINGLE_OR_PAIR, F_TWO_SINGLE, F_HIGHEST_SINGLE, F_HIGHEST_CARD };

constexpr int NRANKS = 14;  // 3..2 and the jokers' rank
constexpr int JOKER_RANK = 13;
constexpr int TWO = 12;
constexpr int NCARDS = 54;
constexpr i64 POWER_SPAN = 128;
constexpr i64 SIZE_SPAN = 128;
constexpr int KEY_BITS = 24;
constexpr u64 ROYAL_RANKS = 0xF80;  // ranks 7..11: T J Q K A

// portable popcount without a library call (a wheel cannot assume the CPU's popcnt instruction)
inline int popcount(u64 x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return int((x * 0x0101010101010101ULL) >> 56);
}
// the number of cards of each rank, one per 4-bit nibble (card i = rank * 4 + suit; the jokers, 52 and 53,
// make rank 13's nibble)
inline u64 rank_counts(u64 x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    return (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
}
inline int lowbit(u64 x) { return __builtin_ctzll(x); }
inline int highbit(u64 x) { return 63 - __builtin_clzll(x); }

struct Window {
    u64 ranks;
    int pos;
    int tb;  // the tie-break rank (straights) or the top rank (runs of pairs and triples)
};

struct BombRule {
    int shape;
    int length;  // -1: any length
    int targets;
};

struct Play {
    u64 mask = 0;
    int shape = -1;
    int cat = 0;
    i64 key = 0;
    int value = 0;
    i64 cls = 0;
    i64 order = 0;
    i64 bomb = 0;
    int size = 0;
};

inline std::vector<i64> as_vec(const py::dict& d, const char* name) {
    if (!d.contains(name)) throw std::invalid_argument(std::string("tables lack ") + name);
    auto arr = py::array_t<i64, py::array::c_style | py::array::forcecast>(d[name]);
    return std::vector<i64>(arr.data(), arr.data() + arr.size());
}

inline i64 as_int(const py::dict& d, const char* name) {
    if (!d.contains(name)) throw std::invalid_argument(std::string("tables lack ") + name);
    return d[name].cast<i64>();
}

// the picks of k cards from one rank's (at most 4, so at most 6 picks), without allocating
struct Picks {
    u64 m[6];
    int n = 0;
    void fill(u64 cards, int k) {
        for (u64 sub = cards; sub; sub = (sub - 1) & cards)
            if (popcount(sub) == k && n < 6) m[n++] = sub;
    }
    const u64* begin() const { return m; }
    const u64* end() const { return m + n; }
};

// The compiled rules: everything the round asks, as numbers.
struct Tables {
    int power[64] = {}, full_power[64] = {}, poker_power[64] = {}, rank_of[64] = {}, suit_of[64] = {};
    int poker_rank_power[NRANKS] = {}, suit_power[4] = {}, rank_power[NRANKS] = {};
    u64 rank_mask[NRANKS] = {};  // the cards of each rank
    u64 suit_mask[5] = {};       // the cards of each suit (4: jokers)
    int cat[NSHAPES];            // -1: not played
    int family[NSHAPES];
    u64 sizes[NSHAPES] = {};     // bit n: the shape can have n cards
    std::vector<int> by_size[64];  // shapes of n cards, highest category first
    std::vector<Window> straights[NRANKS + 1];
    std::vector<Window> runs[4][NRANKS + 1];
    std::vector<BombRule> bombs;
    u64 bomb_sizes = 0;
    u64 pack = 0, joker_mask = 0;
    bool match_kind = false, same_category_fives = false, card_value_fives = false, highest_card_straights = false;
    bool straight_suit_tiebreak = false, poker_suit_tiebreak = false, equal_beats = false, bomb_same_kind = false;
    int flush_order = 0;  // 0 ranks-then-suit, 1 suit-then-ranks, 2 top-card
    int highest_face = 0;
    // the round
    int forbid = 0;
    bool lock = false, one_pass = false, ends_on_out = false, plays_to_last = false;
    bool three_threes = false;  // after a lead of three 3s, the next player holding three 2s must play them
    bool draw_on_pass = false;  // a player who passes draws the stock's top card
    bool valueless = false;     // jokers are played alone, as singles that beat any single and lose to any
    // the deal of the batched loops: the lead card (-1: the lowest dealt) and whether its holder must play it
    int lead_face = -1;
    bool lead_must = true;

    explicit Tables(const py::dict& d) {
        auto pw = as_vec(d, "power"), fp = as_vec(d, "full_power"), pp = as_vec(d, "poker_power");
        auto rk = as_vec(d, "rank_of"), st = as_vec(d, "suit_of");
        if (pw.size() != NCARDS || fp.size() != NCARDS || pp.size() != NCARDS || rk.size() != NCARDS ||
            st.size() != NCARDS)
            throw std::invalid_argument("card tables must have 54 entries");
        for (int i = 0; i < NCARDS; ++i) {
            power[i] = int(pw[i]);
            full_power[i] = int(fp[i]);
            poker_power[i] = int(pp[i]);
            rank_of[i] = int(rk[i]);
            suit_of[i] = int(st[i]);
            // the card layout (bigtwo.cards) that rank_counts relies on
            if (rank_of[i] != (i < 52 ? i / 4 : JOKER_RANK) || suit_of[i] != (i < 52 ? i % 4 : 4))
                throw std::invalid_argument("cards must be laid out rank * 4 + suit, the jokers at 52 and 53");
        }
        auto prp = as_vec(d, "poker_rank_power"), rp = as_vec(d, "rank_power"), sp = as_vec(d, "suit_power");
        for (int r = 0; r < NRANKS; ++r) poker_rank_power[r] = int(prp.at(r)), rank_power[r] = int(rp.at(r));
        for (int s = 0; s < 4; ++s) suit_power[s] = int(sp.at(s));
        pack = u64(as_int(d, "pack"));
        for (int i = 0; i < NCARDS; ++i) {
            if (!(pack >> i & 1)) continue;
            rank_mask[rank_of[i]] |= 1ULL << i;
            suit_mask[suit_of[i]] |= 1ULL << i;
            if (rank_of[i] == JOKER_RANK) joker_mask |= 1ULL << i;
        }
        for (int k = 0; k < NSHAPES; ++k) cat[k] = -1, family[k] = 0;
        auto kinds = as_vec(d, "kinds"), fams = as_vec(d, "families"), szs = as_vec(d, "kind_sizes");
        for (size_t c = 0; c < kinds.size(); ++c) {
            int k = int(kinds[c]);
            if (k < 0 || k >= NSHAPES) throw std::invalid_argument("unknown combination shape");
            cat[k] = int(c);
            family[k] = int(fams.at(c));
            sizes[k] = u64(szs.at(c));
        }
        for (int n = 0; n < 64; ++n) {
            for (size_t c = kinds.size(); c-- > 0;)
                if (sizes[kinds[c]] >> n & 1) by_size[n].push_back(int(kinds[c]));
        }
        auto sw = as_vec(d, "straights");  // rows of (length, rank bits, position, tie-break rank)
        for (size_t i = 0; i + 3 < sw.size(); i += 4) {
            int len = int(sw[i]);
            if (len < 1 || len > NRANKS) throw std::invalid_argument("straight length out of range");
            straights[len].push_back({u64(sw[i + 1]), int(sw[i + 2]), int(sw[i + 3])});
        }
        auto rw = as_vec(d, "runs");  // rows of (width, count, rank bits, position, top rank)
        for (size_t i = 0; i + 4 < rw.size(); i += 5) {
            int w = int(rw[i]), n = int(rw[i + 1]);
            if (w < 2 || w > 3 || n < 1 || n > NRANKS) throw std::invalid_argument("run out of range");
            runs[w][n].push_back({u64(rw[i + 2]), int(rw[i + 3]), int(rw[i + 4])});
        }
        auto bw = as_vec(d, "bombs");  // rows of (shape, length or -1, target bits)
        for (size_t i = 0; i + 2 < bw.size(); i += 3) {
            BombRule b{int(bw[i]), int(bw[i + 1]), int(bw[i + 2])};
            if (b.shape < 0 || b.shape >= NSHAPES || cat[b.shape] < 0) throw std::invalid_argument("bad bomb");
            bombs.push_back(b);
            bomb_sizes |= sizes[b.shape];
        }
        match_kind = as_int(d, "match_kind");
        same_category_fives = as_int(d, "same_category_fives");
        card_value_fives = as_int(d, "card_value_fives");
        highest_card_straights = as_int(d, "highest_card_straights");
        straight_suit_tiebreak = as_int(d, "straight_suit_tiebreak");
        poker_suit_tiebreak = as_int(d, "poker_suit_tiebreak");
        equal_beats = as_int(d, "equal_beats");
        bomb_same_kind = as_int(d, "bomb_same_kind");
        flush_order = int(as_int(d, "flush_order"));
        highest_face = int(as_int(d, "highest_face"));
        forbid = int(as_int(d, "forbid"));
        lock = as_int(d, "pass_locks_out");
        one_pass = as_int(d, "one_pass_ends_trick");
        ends_on_out = as_int(d, "trick_ends_on_out");
        plays_to_last = as_int(d, "plays_to_last");
        three_threes = as_int(d, "three_threes_force_twos");
        draw_on_pass = as_int(d, "draw_on_pass");
        valueless = as_int(d, "valueless_jokers");
        lead_face = int(as_int(d, "lead_face"));
        lead_must = as_int(d, "lead_must");
    }

    // --- keys (bigtwo.combos.evaluator, the reference) -----------------------------------------------------
    int max_of(const int* table, u64 m) const {
        int best = -1;
        for (; m; m &= m - 1) best = std::max(best, table[lowbit(m)]);
        return best;
    }
    bool suited(u64 m) const {
        int s = suit_of[lowbit(m)];
        return s != 4 && (m & ~suit_mask[s]) == 0;
    }
    const Window* find(const std::vector<Window>& ws, u64 ranks) const {
        for (const auto& w : ws)
            if (w.ranks == ranks) return &w;
        return nullptr;
    }
    // (key, value) of a straight: by the table's place, or by its highest card
    std::pair<i64, int> straight_kv(u64 m, const Window& w) const {
        if (highest_card_straights) {
            int top = -1, best = -1;
            for (u64 x = m; x; x &= x - 1) {
                int c = lowbit(x);
                if (power[c] > best) best = power[c], top = c;
            }
            int f = full_power[top];
            return {straight_suit_tiebreak ? f : f - f % 8, rank_of[top]};
        }
        int tb_card = lowbit(m & rank_mask[w.tb]);
        return {i64(w.pos) * POWER_SPAN + (straight_suit_tiebreak ? full_power[tb_card] : 0), w.tb};
    }
    i64 flush_key(u64 m) const {
        int ranks[8], n = 0;
        for (u64 x = m; x; x &= x - 1) ranks[n++] = poker_rank_power[rank_of[lowbit(x)]];
        std::sort(ranks, ranks + n, std::greater<int>());
        i64 rk = 0;
        for (int i = 0; i < n; ++i) rk = rk * 16 + ranks[i];
        i64 suit = poker_suit_tiebreak ? suit_power[suit_of[lowbit(m)]] : 0;
        if (flush_order == 0) return rk * 8 + suit;
        if (flush_order == 1) return suit * (i64(1) << 20) + rk;
        return max_of(poker_power, m);
    }

    // Does mask m make shape k? (key, value) when it does.
    bool match(int k, u64 m, int n, const int* cnt, u64 rbits, i64& key, int& value) const {
        int ng = popcount(rbits);
        switch (k) {
            case SINGLE:
                key = power[lowbit(m)], value = rank_of[lowbit(m)];
                return n == 1;
            case PAIR:
            case TRIPLE:
            case QUAD:
                if (ng != 1) return false;
                key = max_of(power, m), value = lowbit(rbits);
                return true;
            case JOKER_PAIR: {
                if (n != 2 || (m & ~joker_mask)) return false;
                int a = power[lowbit(m)], b = power[highbit(m)];
                key = i64(std::max(a, b)) * POWER_SPAN + std::min(a, b), value = JOKER_RANK;
                return true;
            }
            case TWO_PAIRS:
            case TWO_PAIR_JUNK:
            case SISTERS: {
                int want = k == TWO_PAIRS ? 2 : 3;
                if (ng != want) return false;
                int hi = -1, lo = -1, ones = 0;
                for (int r = NRANKS - 1; r >= 0; --r) {
                    if (cnt[r] == 2) (hi < 0 ? hi : lo) = r;
                    else if (cnt[r] == 1) ++ones;
                    else if (cnt[r]) return false;
                }
                if (lo < 0 || ones != want - 2) return false;
                if (k == TWO_PAIRS) {
                    key = i64(max_of(power, m & rank_mask[hi])) * POWER_SPAN + max_of(power, m & rank_mask[lo]);
                } else {
                    if (k == SISTERS && (hi != lo + 1 || hi >= JOKER_RANK)) return false;
                    int a = max_of(poker_power, m & rank_mask[hi]), b = max_of(poker_power, m & rank_mask[lo]);
                    key = i64(std::max(a, b)) * POWER_SPAN + std::min(a, b);
                }
                value = hi;
                return true;
            }
            case STRAIGHT:
            case STRAIGHT_FLUSH: {
                if (ng != n || n > NRANKS) return false;
                const Window* w = find(straights[n], rbits);
                if (!w || (k == STRAIGHT_FLUSH && !suited(m))) return false;
                auto kv = straight_kv(m, *w);
                key = kv.first, value = kv.second;
                return true;
            }
            case ROYAL_FLUSH:
                if (n != 5 || rbits != ROYAL_RANKS || !suited(m)) return false;
                key = power[lowbit(m & rank_mask[11])], value = 11;
                return true;
            case FLUSH:
                if (n != 5 || !suited(m)) return false;
                key = flush_key(m), value = highbit(rbits);
                return true;
            case FULL_HOUSE: {
                if (ng != 2) return false;
                int a = lowbit(rbits), b = highbit(rbits);
                int t;
                if (cnt[a] == 3 && cnt[b] == 2) t = a;
                else if (cnt[a] == 2 && cnt[b] == 3) t = b;
                else return false;
                key = max_of(full_power, m & rank_mask[t]), value = t;
                return true;
            }
            case FOUR_OF_A_KIND: {
                if (ng != 2) return false;
                int a = lowbit(rbits), b = highbit(rbits);
                int q = cnt[a] == 4 ? a : (cnt[b] == 4 ? b : -1);
                if (q < 0) return false;
                key = max_of(poker_power, m & rank_mask[q]), value = q;
                return true;
            }
            case TRIPLE_JUNK: {
                if (ng != 3) return false;
                int t = -1, ones = 0;
                for (u64 x = rbits; x; x &= x - 1) {
                    int r = lowbit(x);
                    if (cnt[r] == 3) t = r;
                    else if (cnt[r] == 1) ++ones;
                }
                if (t < 0 || ones != 2) return false;
                key = max_of(poker_power, m & rank_mask[t]), value = t;
                return true;
            }
            case PAIR_STRAIGHT:
            case TRIPLE_STRAIGHT: {
                int width = k == PAIR_STRAIGHT ? 2 : 3;
                for (u64 x = rbits; x; x &= x - 1)
                    if (cnt[lowbit(x)] != width) return false;
                if (ng > NRANKS) return false;
                const Window* w = find(runs[width][ng], rbits);
                if (!w) return false;
                key = i64(w->pos) * POWER_SPAN + max_of(power, m & rank_mask[w->tb]), value = w->tb;
                return true;
            }
            default:
                return false;
        }
    }

    // The best combination the cards make (highest category), as a Play; false when none.
    bool classify(u64 m, Play& out) const {
        int n = popcount(m);
        if (n >= 64 || by_size[n].empty()) return false;
        if (valueless && (m & joker_mask) && (m & (m - 1))) return false;  // a valueless joker is played alone
        int cnt[NRANKS];
        u64 rbits = 0, counts = rank_counts(m);
        for (int r = 0; r < NRANKS; ++r) {
            cnt[r] = int(counts >> (4 * r) & 15);
            if (cnt[r]) rbits |= 1ULL << r;
        }
        for (int k : by_size[n]) {
            i64 key;
            int value;
            if (match(k, m, n, cnt, rbits, key, value)) {
                make(m, k, n, key, value, out);
                return true;
            }
        }
        return false;
    }

    void make(u64 m, int k, int n, i64 key, int value, Play& p) const {
        p.mask = m, p.shape = k, p.cat = cat[k], p.key = key, p.value = value, p.size = n;
        if (match_kind) p.cls = i64(family[k]) * SIZE_SPAN + n;
        else if (n == 5 && same_category_fives) p.cls = i64(cat[k] + 1) * SIZE_SPAN + n;
        else p.cls = n;
        p.order = (i64(cat[k]) << KEY_BITS) | key;
        if (n == 5 && card_value_fives) p.order |= i64(rank_power[value]) << (KEY_BITS + 5);
        if (valueless && k == SINGLE && (m & joker_mask)) p.order = -1;  // any single beats it
        p.bomb = 0;
        for (size_t i = 0; i < bombs.size(); ++i) {
            const auto& b = bombs[i];
            int width = k == PAIR_STRAIGHT ? 2 : (k == TRIPLE_STRAIGHT ? 3 : 1);
            if (b.shape == k && (b.length < 0 || b.length * width == n))
                p.bomb = (i64(i + 1) << 40) | (i64(n) << 32) | key;
        }
    }

    // --- comparison ---------------------------------------------------------------------------------------
    bool normally_beats(const Play& a, const Play& b) const {
        if (a.cls != b.cls) return false;
        return equal_beats ? a.order >= b.order : a.order > b.order;
    }
    bool bomb_hits(const Play& bomb, const Play& t) const {
        int targets = bombs[size_t((bomb.bomb >> 40) - 1)].targets;
        if (targets & T_ANY) return true;
        if ((targets & T_SINGLES_PAIRS) && (t.shape == SINGLE || t.shape == PAIR)) return true;
        bool twos = t.value == TWO;
        if ((targets & T_SINGLE_TWO) && t.shape == SINGLE && twos) return true;
        if ((targets & T_PAIR_TWOS) && t.shape == PAIR && twos) return true;
        if ((targets & T_THREE_TWOS) && t.shape == TRIPLE && twos) return true;
        if ((targets & T_HIGHEST_SINGLE) && t.shape == SINGLE) return highbit(t.mask) % NCARDS == highest_face;
        return false;
    }
    bool beats(const Play& a, const Play& b) const {
        if (!bombs.empty() && (a.bomb || b.bomb)) {
            if (!a.bomb) return false;
            if (b.bomb) {
                if (bomb_same_kind && (a.bomb >> 32) != (b.bomb >> 32)) return false;
                return equal_beats ? a.bomb >= b.bomb : a.bomb > b.bomb;
            }
            return bomb_hits(a, b) || normally_beats(a, b);
        }
        if (valueless && a.cls == b.cls && a.shape == SINGLE && b.shape == SINGLE && ((a.mask | b.mask) & joker_mask))
            return true;  // a valueless joker beats any single, and any single beats it
        return normally_beats(a, b);
    }

    bool last_play_forbidden(const Play& p) const {
        if (forbid == F_NONE) return false;
        bool all_twos = (p.mask & ~rank_mask[TWO]) == 0;
        switch (forbid) {
            case F_TWO_SINGLE_OR_PAIR: return (p.shape == SINGLE || p.shape == PAIR) && all_twos;
            case F_TWO_SINGLE: return p.shape == SINGLE && all_twos;
            case F_HIGHEST_SINGLE: return p.shape == SINGLE && lowbit(p.mask) % NCARDS == highest_face;
            case F_HIGHEST_CARD: return (p.mask >> highest_face) & 1;
            default: return false;
        }
    }

    // --- generation: every combination of the hand of the given sizes ---------------------------------------
    static void choose(u64 pool, int k, u64 acc, std::vector<u64>& out) {
        if (k == 0) {
            out.push_back(acc);
            return;
        }
        if (popcount(pool) < k) return;
        while (pool && popcount(pool) >= k) {
            u64 low = pool & (~pool + 1);
            pool ^= low;
            choose(pool, k - 1, acc | low, out);
        }
    }
    // one pick of `width` cards from each rank of `ranks` (submasks of each rank's cards, no allocation)
    static void product(const u64* per_rank, int width, u64 ranks, u64 acc, std::vector<u64>& out) {
        if (!ranks) {
            out.push_back(acc);
            return;
        }
        int r = lowbit(ranks);
        u64 cards = per_rank[r], rest = ranks & (ranks - 1);
        if (width == 1) {
            for (u64 x = cards; x; x &= x - 1) product(per_rank, 1, rest, acc | (x & (~x + 1)), out);
            return;
        }
        for (u64 sub = cards; sub; sub = (sub - 1) & cards)
            if (popcount(sub) == width) product(per_rank, width, rest, acc | sub, out);
    }

    void candidates(u64 hand, u64 size_mask, std::vector<u64>& out) const {
        u64 per_rank[NRANKS];
        int cnt[NRANKS];
        u64 present = 0;
        u64 counts = rank_counts(hand);
        for (int r = 0; r < NRANKS; ++r) {
            per_rank[r] = hand & rank_mask[r];
            cnt[r] = int(counts >> (4 * r) & 15);
            if (cnt[r]) present |= 1ULL << r;
        }
        auto on = [&](int k) { return cat[k] >= 0 && (sizes[k] & size_mask); };
        if (on(SINGLE))
            for (u64 x = hand; x; x &= x - 1) out.push_back(x & (~x + 1));
        const int same[3][2] = {{PAIR, 2}, {TRIPLE, 3}, {QUAD, 4}};
        for (auto& s : same)
            if (on(s[0]))
                for (int r = 0; r < NRANKS; ++r)
                    if (cnt[r] >= s[1]) choose(per_rank[r], s[1], 0, out);
        if (on(JOKER_PAIR)) choose(hand & joker_mask, 2, 0, out);
        Picks pairs[NRANKS], triples[NRANKS];
        bool need_pairs = on(TWO_PAIRS) || on(TWO_PAIR_JUNK) || on(SISTERS) || on(FULL_HOUSE);
        bool need_triples = on(FULL_HOUSE) || on(TRIPLE_JUNK);
        for (int r = 0; r < NRANKS; ++r) {
            if (need_pairs && cnt[r] >= 2) pairs[r].fill(per_rank[r], 2);
            if (need_triples && cnt[r] >= 3) triples[r].fill(per_rank[r], 3);
        }
        bool pairs5 = on(TWO_PAIR_JUNK) || on(SISTERS);
        if (on(TWO_PAIRS) || pairs5) {
            for (int a = 0; a < NRANKS; ++a)
                for (int b = a + 1; b < NRANKS; ++b)
                    for (u64 pa : pairs[a])
                        for (u64 pb : pairs[b]) {
                            if (on(TWO_PAIRS)) out.push_back(pa | pb);
                            if (pairs5)
                                for (u64 x = hand & ~per_rank[a] & ~per_rank[b]; x; x &= x - 1)
                                    out.push_back(pa | pb | (x & (~x + 1)));
                        }
        }
        if (on(FULL_HOUSE))
            for (int t = 0; t < NRANKS; ++t)
                for (u64 tr : triples[t])
                    for (int p = 0; p < NRANKS; ++p)
                        if (p != t)
                            for (u64 pr : pairs[p]) out.push_back(tr | pr);
        if (on(TRIPLE_JUNK))
            for (int t = 0; t < NRANKS; ++t)
                for (u64 tr : triples[t]) {
                    u64 rest = hand & ~per_rank[t];
                    for (u64 x = rest; x; x &= x - 1) {
                        u64 a = x & (~x + 1);
                        for (u64 y = rest & ~per_rank[rank_of[lowbit(a)]] & ~((a << 1) - 1); y; y &= y - 1)
                            out.push_back(tr | a | (y & (~y + 1)));
                    }
                }
        if (on(FOUR_OF_A_KIND))
            for (int q = 0; q < NRANKS; ++q)
                if (cnt[q] == 4)
                    for (u64 x = hand & ~per_rank[q]; x; x &= x - 1) out.push_back(per_rank[q] | (x & (~x + 1)));
        if (on(STRAIGHT) || on(STRAIGHT_FLUSH))
            for (int len = 1; len <= NRANKS; ++len)
                if (size_mask >> len & 1)
                    for (const auto& w : straights[len])
                        if ((w.ranks & ~present) == 0) {
                            if (on(STRAIGHT)) {
                                product(per_rank, 1, w.ranks, 0, out);
                            } else {
                                for (int s = 0; s < 4; ++s) {
                                    u64 suited_rank[NRANKS];
                                    for (int r = 0; r < NRANKS; ++r) suited_rank[r] = per_rank[r] & suit_mask[s];
                                    bool ok = true;
                                    for (u64 x = w.ranks; x; x &= x - 1) ok = ok && suited_rank[lowbit(x)];
                                    if (ok) product(suited_rank, 1, w.ranks, 0, out);
                                }
                            }
                        }
        if (on(ROYAL_FLUSH))
            for (int s = 0; s < 4; ++s) {
                u64 m = 0;
                bool ok = true;
                for (int r = 7; r < 12; ++r) {
                    u64 c = per_rank[r] & suit_mask[s];
                    ok = ok && c;
                    m |= c;
                }
                if (ok) out.push_back(m);
            }
        if (on(FLUSH))
            for (int s = 0; s < 4; ++s)
                if (popcount(hand & suit_mask[s]) >= 5) choose(hand & suit_mask[s], 5, 0, out);
        for (int width = 2; width <= 3; ++width) {
            int k = width == 2 ? PAIR_STRAIGHT : TRIPLE_STRAIGHT;
            if (!on(k)) continue;
            for (int n = 1; n <= NRANKS; ++n)
                if (n * width < 64 && (size_mask >> (n * width) & 1))
                    for (const auto& w : runs[width][n]) {
                        bool ok = true;
                        for (u64 x = w.ranks; x; x &= x - 1) ok = ok && cnt[lowbit(x)] >= width;
                        if (ok) product(per_rank, width, w.ranks, 0, out);
                    }
        }
    }

    // every combination the hand holds of the given sizes (each once, classified)
    void combos(u64 hand, u64 size_mask, std::vector<Play>& out) const {
        static thread_local std::vector<u64> cand;
        cand.clear();
        candidates(hand, size_mask, cand);
        std::sort(cand.begin(), cand.end());
        cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
        Play p;
        for (u64 m : cand) {
            int n = popcount(m);
            if (n < 64 && (size_mask >> n & 1) && classify(m, p)) out.push_back(p);
        }
    }

    u64 all_sizes() const {
        u64 s = 0;
        for (int k = 0; k < NSHAPES; ++k)
            if (cat[k] >= 0) s |= sizes[k];
        return s;
    }
};

inline bool by_order(const Play& a, const Play& b) {
    return std::tie(a.cls, a.order, a.mask) < std::tie(b.cls, b.order, b.mask);
}
inline bool by_bomb(const Play& a, const Play& b) {
    return std::tie(a.bomb, a.size, a.cls, a.order, a.mask) < std::tie(b.bomb, b.size, b.cls, b.order, b.mask);
}

// One round's play phase (bigtwo.game.Game's, the reference).
struct Round {
    std::shared_ptr<const Tables> t;
    int n = 0;
    u64 hands[8] = {};
    int to_move = 0;
    Play top;
    bool has_top = false;
    int top_seat = -1;
    u64 passed = 0;
    int blocked = 0;
    u64 required = 0;
    u64 active = 0;
    int finished[8] = {};
    int nfinished = 0;
    bool over = false;
    int order[8] = {};  // the finishing order once over
    int decisions = 0;
    int since_open = 0;  // actions since the current trick (or the blocked lead) began
    std::vector<int> stock;  // the cards drawn on a pass, top first
    int stock_pos = 0;

    struct Snap {
        u64 hands[8];
        int to_move, top_seat, blocked, nfinished;
        Play top;
        bool has_top;
        u64 passed, required, active;
        int finished[8];
        int decisions, since_open, stock_pos;
    };
    std::vector<Snap> undo_stack;
    // the last listing of legal actions, kept for the apply that follows it from Python
    std::vector<Play> listed;
    bool listed_valid = false;
    const std::vector<Play>& listing() {
        if (!listed_valid) legal(listed), listed_valid = true;
        return listed;
    }

    Round() = default;
    Round(std::shared_ptr<const Tables> tables, const std::vector<u64>& hs, int first, u64 req)
        : t(std::move(tables)) {
        n = int(hs.size());
        if (n < 2 || n > 8) throw std::invalid_argument("a round needs 2 to 8 hands");
        if (first < 0 || first >= n) throw std::invalid_argument("the first seat is not a seat");
        for (int s = 0; s < n; ++s) {
            if (hs[s] & ~t->pack) throw std::invalid_argument("a hand holds a card outside the pack");
            hands[s] = hs[s];
            if (hs[s]) active |= 1ULL << s;
            else finished[nfinished++] = s;
        }
        to_move = first;
        required = req;
        if (!active || (active & (active - 1)) == 0) finish();
    }

    int next_active(int seat) const {
        for (int step = 1; step <= n; ++step) {
            int s = (seat + step) % n;
            if (active >> s & 1) return s;
        }
        return seat;
    }
    int next_to_move(int seat) const {
        u64 skip = t->lock ? passed : 0;
        for (int step = 1; step <= n; ++step) {
            int s = (seat + step) % n;
            if ((active >> s & 1) && !(skip >> s & 1)) return s;
        }
        return seat;
    }

    // the "three 3s" rule: the player right after a lead of three 3s (the trick's first action) must answer
    bool must_answer() const {
        return t->three_threes && has_top && top.shape == TRIPLE && top.value == 0 && since_open == 1 &&
               next_active(top_seat) == to_move;
    }

    // legal actions, in the reference's order: plays, then the pass (mask 0) where allowed
    // each seat's combinations, sorted by (class, order, mask), for the hand they were listed from: a hand that
    // has lost cards since filters its list, one that gained some (an undo) lists anew
    mutable std::vector<Play> index[8];
    mutable u64 index_hand[8] = {};
    mutable bool index_built[8] = {};
    const std::vector<Play>& seat_index(int s) const {
        u64 hand = hands[s];
        auto& idx = index[s];
        if (!index_built[s] || (hand & ~index_hand[s])) {
            idx.clear();
            t->combos(hand, t->all_sizes(), idx);
            std::sort(idx.begin(), idx.end(), by_order);
            index_built[s] = true;
        } else if (hand != index_hand[s]) {
            u64 gone = index_hand[s] & ~hand;
            idx.erase(std::remove_if(idx.begin(), idx.end(), [&](const Play& p) { return (p.mask & gone) != 0; }),
                      idx.end());
        }
        index_hand[s] = hand;
        return idx;
    }

    void legal(std::vector<Play>& out) const {
        out.clear();
        if (over) return;
        u64 hand = hands[to_move];
        u64 req = required & hand;
        Play pass;
        if (!has_top) {
            if (required && !req) {
                out.push_back(pass);
                return;
            }
            const auto& idx = seat_index(to_move);
            for (const auto& p : idx)
                if ((p.mask & req) == req) out.push_back(p);
        } else {
            const auto& idx = seat_index(to_move);
            bool bomb_top = !t->bombs.empty() && top.bomb;
            // valueless jokers answering a single come first, then the ordinary answers without them
            bool jokers_first = !bomb_top && t->valueless && top.shape == SINGLE && (hand & t->joker_mask);
            if (jokers_first)
                for (const auto& p : idx)
                    if (p.shape == SINGLE && (p.mask & t->joker_mask) && p.mask != top.mask) out.push_back(p);
            static thread_local std::vector<Play> extra;
            extra.clear();
            for (const auto& p : idx) {
                if (jokers_first && (p.mask & t->joker_mask)) continue;
                if (!t->beats(p, top)) continue;
                if (!bomb_top && !t->normally_beats(p, top)) extra.push_back(p);
                else out.push_back(p);
            }
            if (bomb_top) std::sort(out.begin(), out.end(), by_bomb);
            std::sort(extra.begin(), extra.end(), by_bomb);
            out.insert(out.end(), extra.begin(), extra.end());
        }
        if (t->forbid != F_NONE)
            out.erase(std::remove_if(out.begin(), out.end(),
                                     [&](const Play& p) { return p.mask == hand && t->last_play_forbidden(p); }),
                      out.end());
        if (!has_top) {
            if (out.empty()) out.push_back(pass);
            return;
        }
        if (must_answer() && !out.empty() &&
            std::all_of(out.begin(), out.end(), [](const Play& p) { return p.shape == TRIPLE && p.value == TWO; }))
            return;
        out.push_back(pass);
    }

    void snapshot() {
        Snap s;
        std::copy(hands, hands + 8, s.hands);
        s.to_move = to_move, s.top_seat = top_seat, s.blocked = blocked, s.nfinished = nfinished;
        s.top = top, s.has_top = has_top, s.passed = passed, s.required = required, s.active = active;
        std::copy(finished, finished + 8, s.finished);
        s.decisions = decisions, s.since_open = since_open, s.stock_pos = stock_pos;
        undo_stack.push_back(s);
    }
    void undo() {
        if (undo_stack.empty()) throw std::invalid_argument("nothing to undo: the round is at the deal");
        listed_valid = false;
        const Snap& s = undo_stack.back();
        std::copy(s.hands, s.hands + 8, hands);
        to_move = s.to_move, top_seat = s.top_seat, blocked = s.blocked, nfinished = s.nfinished;
        top = s.top, has_top = s.has_top, passed = s.passed, required = s.required, active = s.active;
        std::copy(s.finished, s.finished + 8, finished);
        decisions = s.decisions, since_open = s.since_open, stock_pos = s.stock_pos;
        over = false;
        undo_stack.pop_back();
    }

    // apply a play already known legal (the fast loops) or checked by apply_mask
    void apply(Play p, bool keep_undo) {
        listed_valid = false;
        if (keep_undo) snapshot();
        ++decisions;
        ++since_open;
        if (p.mask == 0) return do_pass();
        int s = to_move;
        u64 hand = hands[s] & ~p.mask;
        hands[s] = hand;
        required = 0;
        blocked = 0;
        top = p, has_top = true, top_seat = s;
        if (!t->lock) passed = 0;
        if (!hand) {
            finished[nfinished++] = s;
            active &= ~(1ULL << s);
            if (!t->plays_to_last || (active & (active - 1)) == 0) return finish();
            if (t->ends_on_out) return new_trick(next_active(s));
        }
        to_move = next_to_move(s);
    }
    void do_pass() {
        int s = to_move;
        if (t->draw_on_pass && stock_pos < int(stock.size())) hands[s] |= 1ULL << stock[size_t(stock_pos++)];
        if (!has_top) {
            if (++blocked >= popcount(active)) return finish();
            to_move = next_active(s);
            since_open = 0;
            return;
        }
        passed |= 1ULL << s;
        u64 others = active & ~(1ULL << top_seat);
        if (t->one_pass || !(others & ~passed)) {
            new_trick((active >> top_seat & 1) ? top_seat : next_active(top_seat));
            return;
        }
        to_move = next_to_move(s);
    }
    void new_trick(int leader) {
        has_top = false, top = Play(), top_seat = -1, passed = 0, to_move = leader, since_open = 0;
    }
    void finish() {
        over = true;
        int k = 0;
        for (int i = 0; i < nfinished; ++i) order[k++] = finished[i];
        int ref = nfinished ? finished[0] : to_move;
        std::vector<int> rest;
        for (int s = 0; s < n; ++s) {
            bool done = false;
            for (int i = 0; i < nfinished; ++i) done = done || finished[i] == s;
            if (!done) rest.push_back(s);
        }
        std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) {
            return std::make_pair(popcount(hands[a]), (a - ref + n) % n) <
                   std::make_pair(popcount(hands[b]), (b - ref + n) % n);
        });
        for (int s : rest) order[k++] = s;
    }

    // --- play-outs --------------------------------------------------------------------------------------------
    template <class Pick>
    int playout(Pick pick, int limit) {
        std::vector<Play> acts;
        int steps = 0;
        while (!over && steps < limit) {
            legal(acts);
            apply(acts[pick(acts)], false);
            ++steps;
        }
        return steps;
    }
};

struct Rng {  // splitmix64: small, fast, reproducible from a seed
    u64 s;
    explicit Rng(u64 seed) : s(seed) {}
    u64 next() {
        u64 z = (s += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    size_t below(size_t k) { return size_t(next() % k); }
};

inline py::tuple play_tuple(const Play& p) {
    return py::make_tuple(p.mask, p.shape, p.cat, p.key, p.value, p.cls, p.order, p.bomb);
}

// deal the pack equally (the cards that do not divide stay out) and find the lead, as the batched loops do
inline Round deal_round(const std::shared_ptr<const Tables>& t, int n, Rng& rng) {
    std::vector<int> cards;
    for (int i = 0; i < NCARDS; ++i)
        if (t->pack >> i & 1) cards.push_back(i);
    for (size_t i = cards.size(); i > 1; --i) std::swap(cards[i - 1], cards[rng.below(i)]);
    size_t each = cards.size() / size_t(n);
    std::vector<u64> hands(size_t(n), 0);
    u64 dealt = 0;
    for (size_t i = 0; i < each * size_t(n); ++i) hands[i % size_t(n)] |= 1ULL << cards[i], dealt |= 1ULL << cards[i];
    u64 lead = 0;
    if (t->lead_face >= 0 && (dealt >> t->lead_face & 1)) {
        lead = 1ULL << t->lead_face;
    } else {
        int best = -1;
        for (u64 x = dealt; x; x &= x - 1) {
            int c = lowbit(x);
            if (best < 0 || t->power[c] < t->power[best]) best = c;
        }
        lead = 1ULL << best;
    }
    int first = 0;
    for (int s = 0; s < n; ++s)
        if (hands[size_t(s)] & lead) first = s;
    Round r(t, hands, first, t->lead_must ? lead : 0);
    if (t->draw_on_pass)
        for (size_t i = each * size_t(n); i < cards.size(); ++i) r.stock.push_back(cards[i]);
    return r;
}

}  // namespace bigtwo
