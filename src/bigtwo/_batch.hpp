// The batched environment's compiled half: N rounds in lockstep that write the learning features (the DMC state row
// and one row per legal action, bigtwo.bots.features) straight into numpy arrays, and step every game with one call.
//
// The feature layout and the deal are compiled in Python (bigtwo.envs.native_batch) from the Ruleset, so nothing here
// knows a preset or a rule text. Deals are Python's own: random.Random(seed).shuffle (Mersenne Twister, the same
// draws bit for bit) and bigtwo.deal.deal's rules for the cards left over, so a compiled batch and the pure-Python
// batched environment given one seed play the same deals. The pure-Python environment is the reference:
// tests/test_batched_native.py plays both and compares legal actions, state and action rows and results exactly.
#pragma once

#include "_engine.hpp"

#include <cstring>

namespace bigtwo {

// Python's random.Random: MT19937 seeded as CPython seeds it from an integer, and its shuffle.
struct PyRandom {
    std::uint32_t mt[624];
    int mti = 625;

    void init_genrand(std::uint32_t s) {
        mt[0] = s;
        for (mti = 1; mti < 624; ++mti)
            mt[mti] = 1812433253U * (mt[mti - 1] ^ (mt[mti - 1] >> 30)) + std::uint32_t(mti);
    }
    void init_by_array(const std::uint32_t* key, size_t len) {
        init_genrand(19650218U);
        size_t i = 1, j = 0;
        for (size_t k = std::max<size_t>(624, len); k; --k) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + std::uint32_t(j);
            ++i, ++j;
            if (i >= 624) mt[0] = mt[623], i = 1;
            if (j >= len) j = 0;
        }
        for (size_t k = 623; k; --k) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - std::uint32_t(i);
            ++i;
            if (i >= 624) mt[0] = mt[623], i = 1;
        }
        mt[0] = 0x80000000U;
        mti = 624;
    }
    // random.Random(seed) for an integer seed: the absolute value's 32-bit words, least significant first
    void seed(unsigned __int128 a) {
        std::uint32_t key[4];
        size_t len = 0;
        do {
            key[len++] = std::uint32_t(a);
            a >>= 32;
        } while (a);
        init_by_array(key, len);
    }
    std::uint32_t next() {
        static const std::uint32_t mag01[2] = {0U, 0x9908b0dfU};
        std::uint32_t y;
        if (mti >= 624) {
            int kk;
            for (kk = 0; kk < 624 - 397; ++kk) {
                y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
                mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1U];
            }
            for (; kk < 623; ++kk) {
                y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
                mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1U];
            }
            y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
            mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 1U];
            mti = 0;
        }
        y = mt[mti++];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= (y >> 18);
        return y;
    }
    // Random._randbelow_with_getrandbits (n < 2**32)
    std::uint32_t below(std::uint32_t n) {
        int k = 32 - __builtin_clz(n);
        std::uint32_t r = next() >> (32 - k);
        while (r >= n) r = next() >> (32 - k);
        return r;
    }
    template <class T>
    void shuffle(std::vector<T>& x) {
        for (size_t i = x.size(); i-- > 1;) std::swap(x[i], x[below(std::uint32_t(i + 1))]);
    }
};

// What happens to the cards a deal leaves over (bigtwo.deal.deal); the numbers are bigtwo.envs.native_batch's
enum LeftoverTo : int { L_NONE = 0, L_HOLDER_OF_LEAD, L_HOLDER_OF_HIGHEST, L_HOLDER_OF_LOWEST_DIAMOND, L_DEALER, L_HIDDEN,
                        L_FACE_UP, L_STOCK, L_SWAP };

// The deal, compiled from the Ruleset (bigtwo.envs.native_batch.compile_batch)
struct DealPlan {
    std::vector<int> pack;       // the cards shuffled, ascending (cards removed before the deal left out)
    u64 removed = 0;             // cards removed before the deal (aside, unseen)
    int hands_n = 0;             // hands dealt to: the players, and a dead hand with the ghost deal
    int upto = 0;                // cards dealt into hands
    std::vector<int> order;      // the hand the i-th card dealt goes to is order[i % hands_n]
    int leftover = L_NONE;
    bool shown = false;          // a leftover taken into a hand is shown to everyone
    int dealer = 0;
    std::vector<int> low_order;          // every card, lowest first by (power, card) of the deal's evaluator
    std::vector<int> low_order_twos_low; // the same under the order a dealt four of a kind makes (empty: none)
    std::vector<int> diamond_order;      // the diamonds by (rank, card)
    int lead_face = -1;          // the card whose holder leads (-1: the lowest dealt)
    bool lead_must = true;       // ... and must play it
    bool redeal_four_twos = false;
};

// The feature layout, compiled from bigtwo.bots.features' encoders
struct FeaturePlan {
    int width = 0;               // card entries a card row (D)
    u64 pack = 0;                // the full pack (for the unseen cards)
    bool face_up = false, known = false;
    int history = 0;             // k
    int kinds = 0;               // K: the ruleset's kinds (state)
    int state_kind[NSHAPES];     // a shape's place among the state's kinds (-1: none)
    int action_kind[NSHAPES];    // ... among the action's kinds (pass first; -1: none)
    int action_kinds = 0;
    int rank_of[NCARDS];
    int card_rows = 0, state_size = 0, action_size = 0;
    static constexpr int CARDS_LEFT_ONE_HOT = 16;
};

struct Slot {
    Round r;
    bool low = false;  // dealt a four of a kind under rules that then make the 2s lowest: the second tables
    i64 episode = 0;
    int actions = 0;
    u64 played[8] = {}, known[8] = {}, dealt[8] = {};
    u64 face_up = 0;
    std::vector<std::pair<int, u64>> history;  // every action of the round: (seat, mask; 0 a pass)
    std::vector<Play> legal;                   // the exposed decision's legal actions
};

struct FinishedRound {
    int env;
    i64 episode;
    bool low;
    std::vector<int> order;
    std::vector<u64> hands, dealt;
    std::vector<std::pair<int, u64>> history;
};

constexpr int MAX_ACTIONS = 10000;  // a safety net (bigtwo.envs.batched.MAX_ACTIONS): every round ends far sooner

struct Batch {
    std::shared_ptr<const Tables> tables, tables_low;
    DealPlan deal;
    FeaturePlan f;
    int n = 0, num_envs = 0;
    __int128 seed = 0;
    bool skip_forced = true;
    i64 steps = 0, moves = 0;
    std::vector<Slot> slots;
    std::vector<FinishedRound> finished;  // since the last output

    // --- the deal (bigtwo.deal.deal and Game's setup, for the rules compiled) ------------------------------------
    void deal_into(int i) {
        Slot& s = slots[size_t(i)];
        __int128 g = (seed * 1000003 + i) * 1000003 + s.episode;
        PyRandom rng;
        rng.seed(static_cast<unsigned __int128>(g < 0 ? -g : g));
        u64 hands[9];
        std::vector<int> cards, stock;
        for (int attempt = 0;; ++attempt) {
            if (attempt >= 100) throw std::runtime_error("no playable deal after 100 redeals");
            cards = deal.pack;
            rng.shuffle(cards);
            deal_cards(s, cards, hands, stock);
            if (!deal.redeal_four_twos) break;
            bool four = false;
            for (int p = 0; p < n; ++p) four = four || popcount(hands[p] & tables->rank_mask[TWO]) >= 4;
            if (!four) break;
        }
        // the round's order: a dealt four of a kind makes the 2s lowest under some rules (Game._round_engine)
        s.low = false;
        if (tables_low)
            for (int p = 0; p < n && !s.low; ++p) {
                u64 counts = rank_counts(hands[p]);
                for (int r = 0; r < JOKER_RANK; ++r) s.low = s.low || ((counts >> (4 * r)) & 0xF) >= 4;
            }
        u64 all = 0;
        for (int p = 0; p < n; ++p) all |= hands[p];
        u64 lead = lead_card(all, s.low ? deal.low_order_twos_low : deal.low_order);
        int first = holder(hands, lead);
        std::vector<u64> hv(hands, hands + n);
        s.r = Round(s.low ? tables_low : tables, hv, first < 0 ? 0 : first, deal.lead_must ? lead : 0);
        s.r.stock = std::move(stock);
        std::copy(hands, hands + 8, s.dealt);
        std::fill(s.played, s.played + 8, 0);
        s.history.clear();
        s.legal.clear();
        s.actions = 0;
    }
    // the shuffled cards into hands, and the cards left over where the rules put them
    void deal_cards(Slot& s, const std::vector<int>& cards, u64* hands, std::vector<int>& stock) const {
        std::fill(hands, hands + 9, 0);
        for (int c = 0; c < deal.upto; ++c) hands[deal.order[size_t(c % deal.hands_n)]] |= 1ULL << cards[size_t(c)];
        u64 rest = 0;
        for (size_t c = size_t(deal.upto); c < cards.size(); ++c) rest |= 1ULL << cards[c];
        u64 dealt = 0;
        for (int p = 0; p < n; ++p) dealt |= hands[p];
        std::fill(s.known, s.known + 8, 0);
        s.face_up = 0;
        stock.clear();
        if (!rest) return;
        int target = -1;
        switch (deal.leftover) {
            case L_HOLDER_OF_LEAD: target = holder(hands, lead_card(dealt, deal.low_order)); break;
            case L_HOLDER_OF_HIGHEST:
                for (size_t k = deal.low_order.size(); k-- > 0;)
                    if (dealt >> deal.low_order[k] & 1) {
                        target = holder(hands, 1ULL << deal.low_order[k]);
                        break;
                    }
                break;
            case L_HOLDER_OF_LOWEST_DIAMOND: {
                u64 low = 0;
                for (int c : deal.diamond_order)
                    if (dealt >> c & 1) {
                        low = 1ULL << c;
                        break;
                    }
                if (!low) low = lowest(dealt, deal.low_order);
                target = holder(hands, low);
                break;
            }
            case L_DEALER: target = deal.dealer; break;
            case L_FACE_UP: s.face_up = rest; break;
            case L_STOCK:
                for (size_t c = size_t(deal.upto); c < cards.size(); ++c) stock.push_back(cards[c]);
                break;
            default: break;  // aside unseen, or on offer for a swap nobody takes here
        }
        if (target >= 0) {
            hands[target] |= rest;
            if (deal.shown) s.known[target] |= rest;
        }
    }
    u64 lowest(u64 dealt, const std::vector<int>& low_order) const {
        for (int c : low_order)
            if (dealt >> c & 1) return 1ULL << c;
        return 0;
    }
    u64 lead_card(u64 dealt, const std::vector<int>& low_order) const {
        if (!dealt) return 0;
        if (deal.lead_face >= 0 && (dealt >> deal.lead_face & 1)) return 1ULL << deal.lead_face;
        return lowest(dealt, low_order);
    }
    int holder(const u64* hands, u64 mask) const {
        for (int p = 0; p < n; ++p)
            if (hands[p] & mask) return p;
        return -1;
    }

    // --- playing ---------------------------------------------------------------------------------------------
    void play(int i, const Play& p) {
        Slot& s = slots[size_t(i)];
        int seat = s.r.to_move;
        s.r.apply(p, false);
        s.history.emplace_back(seat, p.mask);
        s.played[seat] |= p.mask;
        ++moves;
        if (++s.actions > MAX_ACTIONS)
            throw std::runtime_error("game " + std::to_string(i) + ": no result after " + std::to_string(MAX_ACTIONS) +
                                     " actions");
    }
    // play forced moves until an exposed decision, dealing anew after an end (BatchedEnv._advance)
    void advance(int i) {
        Slot& s = slots[size_t(i)];
        while (true) {
            if (s.r.over) {
                FinishedRound fr;
                fr.env = i, fr.episode = s.episode, fr.low = s.low;
                fr.order.assign(s.r.order, s.r.order + n);
                fr.hands.assign(s.r.hands, s.r.hands + n);
                fr.dealt.assign(s.dealt, s.dealt + n);
                fr.history = s.history;
                finished.push_back(std::move(fr));
                ++s.episode;
                deal_into(i);
                continue;
            }
            s.r.legal(s.legal);
            if (skip_forced && s.legal.size() == 1) {
                Play p = s.legal[0];
                play(i, p);
                continue;
            }
            return;
        }
    }
    void reset() {
        finished.clear();
        for (int i = 0; i < num_envs; ++i) {
            slots[size_t(i)].episode = 0;
            deal_into(i);
            advance(i);
        }
    }
    void step(const i64* choices) {
        for (int i = 0; i < num_envs; ++i) {
            i64 c = choices[i];
            i64 k = i64(slots[size_t(i)].legal.size());
            if (c < 0 || c >= k)
                throw std::invalid_argument("choice " + std::to_string(c) + " for game " + std::to_string(i) + ": it has " +
                                            std::to_string(k) + " legal actions (0-" + std::to_string(k - 1) + ")");
        }
        finished.clear();
        for (int i = 0; i < num_envs; ++i) {
            Play p = slots[size_t(i)].legal[size_t(choices[i])];
            play(i, p);
            ++steps;
            advance(i);
        }
    }

    // --- the features (bigtwo.bots.features.StateEncoder / ActionEncoder, the reference) ------------------------
    static void row(float* o, u64 m) {
        for (; m; m &= m - 1) o[lowbit(m)] = 1.0f;
    }
    void write_state(const Slot& s, float* out) const {
        const Round& r = s.r;
        int seat = r.to_move, d = f.width, k = f.history;
        u64 hand = r.hands[seat];
        u64 seen = hand | s.face_up;
        for (int p = 0; p < n; ++p) seen |= s.played[p];
        row(out, hand);
        row(out + d, f.pack & ~seen);
        int at = 2;
        for (int q = 0; q < n; ++q) row(out + (at++) * d, s.played[(seat + q) % n]);
        row(out + (at++) * d, r.has_top ? r.top.mask : 0);
        if (f.face_up) row(out + (at++) * d, s.face_up);
        if (f.known)
            for (int q = 1; q < n; ++q) {
                int o = (seat + q) % n;
                row(out + (at++) * d, s.known[o] & r.hands[o]);
            }
        int recent = std::min<int>(k, int(s.history.size()));
        for (int j = 0; j < recent; ++j) row(out + (at + j) * d, s.history[s.history.size() - 1 - size_t(j)].second);
        at += k;
        float* small = out + at * d;
        const int oh = FeaturePlan::CARDS_LEFT_ONE_HOT;
        for (int q = 0; q < n; ++q) {
            int c = popcount(r.hands[(seat + q) % n]);
            small[q * oh + std::min(c, oh - 1)] = 1.0f;
            small[n * oh + q] = float(double(c) / 13.0);
        }
        int i = n * oh + n;
        if (r.has_top) small[i + (r.top_seat - seat + n) % n] = 1.0f;
        i += n;
        for (int q = 0; q < n; ++q) {
            int o = (seat + q) % n;
            if (r.passed >> o & 1) small[i + q] = 1.0f;
        }
        for (int x = 0; x < r.nfinished; ++x) small[i + n + (r.finished[x] - seat + n) % n] = 1.0f;
        i += 2 * n;
        if (!r.has_top) small[i] = 1.0f;
        i += 1;
        if (r.has_top && f.state_kind[r.top.shape] >= 0) small[i + f.state_kind[r.top.shape]] = 1.0f;
        i += f.kinds;
        for (int j = 0; j < recent; ++j) {
            const auto& h = s.history[s.history.size() - 1 - size_t(j)];
            small[i + j * n + (h.first - seat + n) % n] = 1.0f;
            if (!h.second) small[i + k * n + j] = 1.0f;
        }
    }
    void write_actions(const Slot& s, float* out) const {
        int d = f.width, base = 2 * d, x = base + f.action_kinds;
        u64 hand = s.r.hands[s.r.to_move];
        int held[NRANKS] = {};
        for (u64 m = hand; m; m &= m - 1) ++held[f.rank_of[lowbit(m)]];
        for (const Play& p : s.legal) {
            row(out, p.mask);
            row(out + d, hand & ~p.mask);
            int ki = p.mask ? f.action_kind[p.shape] : 0;
            if (ki >= 0) out[base + ki] = 1.0f;
            if (p.mask) {
                out[x] = float(double(popcount(p.mask)) / 5.0);
                if (!(hand & ~p.mask)) out[x + 1] = 1.0f;
                int used[NRANKS] = {};
                for (u64 m = p.mask; m; m &= m - 1) ++used[f.rank_of[lowbit(m)]];
                int split = 0;
                for (int rk = 0; rk < NRANKS; ++rk)
                    if (used[rk] && used[rk] < held[rk]) {
                        ++split;
                        out[x + 2 + std::min(held[rk], 4) - 2] = 1.0f;
                    }
                out[x + 5] = float(double(split) / 4.0);
            }
            out += f.action_size;
        }
    }
};

void bind_batch(py::module_& m);

}  // namespace bigtwo
