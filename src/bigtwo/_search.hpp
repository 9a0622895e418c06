// The heuristic player (bigtwo.bots.heuristic and bigtwo.bots.plan, the reference) on the compiled round, for the
// search bots' play-outs: the same plan of the hand, the same scores in the same order of floating-point
// operations, so that it chooses exactly as the Python policy does (tests/test_search_native.py plays both side by
// side). The tables it reads beyond the round's (the cost of a group of one rank, how a kind ranks among those of
// its size, the bombs that could beat a play, the weights) are computed by bigtwo.bots.native_playouts from the
// Python planner, so no rule is decided here.
#pragma once

#include <time.h>

#include <algorithm>
#include <unordered_map>

#include "_engine.hpp"

namespace bigtwo {

constexpr double H_WIN = 100.0;
constexpr int H_DEFEND_AT = 3, H_URGENT_AT = 8, H_MAX_BREAKING = 24, H_CONTEST_AT = 5;
constexpr double H_BETA = 0.5, H_STRANDED = 3.0;
constexpr int H_BEAM[4] = {5, 3, 2, 2};
constexpr size_t H_SHORTLIST = 40, H_CACHE_LIMIT = 5000;

inline bool same_rank(int shape) { return shape >= SINGLE && shape <= QUAD; }

// a few cards (those of one rank) in place by `less` (std::sort trips GCC's array-bounds check on them)
template <class Less>
inline void sort_few(int* cs, int n, Less less) {
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0 && less(cs[j], cs[j - 1]); --j) std::swap(cs[j], cs[j - 1]);
}

struct Weights {  // bigtwo.bots.heuristic_weights.HeuristicWeights, field by field
    double size_bonus, cash_controls, take_lead, short_lead_single, short_lead_pair, defend, defend_high, dump,
        dump_urgent, pass_score, control_value, high_spend, high_from, contest;
};

struct HPlan {
    u64 hand = 0, stranded = 0;
    std::vector<Play> combos;
};

struct Struct {  // a structured combination of a hand, its cost and the cards it takes of each rank
    Play p;
    double cost;
    int nu;
    signed char ur[NRANKS], uc[NRANKS];
};

struct BombPool {  // one bomb rule: its shape, its sizes, and how many cards of a rank its strongest needs (0: any)
    int shape;
    u64 sizes;
    int per_rank;
};

struct Heuristic {
    std::shared_ptr<const Tables> t;
    double kind_pos[NSHAPES] = {}, kind_count[NSHAPES] = {};
    double group_cost[NRANKS][9] = {};
    std::vector<int> split_parts[9];  // each size's best split into same-rank plays, smallest part first
    u64 struct_shapes = 0, struct_sizes = 0;
    int min_struct = 99;
    std::vector<BombPool> bomb_pools;
    bool has_bombs = false, contest = true;
    Weights w{};
    int top_of[13][16];
    std::unordered_map<u64, HPlan> plans;
    std::unordered_map<u64, std::vector<Struct>> structs_of;

    // --- static strength and cost (Planner.strength, Planner.cost) -----------------------------------------
    double strength(const Play& p) const {
        if (same_rank(p.shape)) return p.value / 12.0;
        return (kind_pos[p.shape] + p.value / 13.0) / kind_count[p.shape];
    }
    double cost(const Play& p) const { return 1.0 - H_BETA * strength(p); }

    // --- the plan (Planner.plan) -----------------------------------------------------------------------------
    const std::vector<Struct>& structs(u64 hand) {
        auto it = structs_of.find(hand);
        if (it != structs_of.end()) return it->second;
        std::vector<Struct> out;
        if (struct_sizes) {
            std::vector<Play> all;
            t->combos(hand, struct_sizes, all);
            std::sort(all.begin(), all.end(), by_order);
            for (const auto& p : all) {
                if (!(struct_shapes >> p.shape & 1)) continue;
                Struct s;
                s.p = p, s.cost = cost(p), s.nu = 0;
                for (int r = 0; r < NRANKS; ++r) {
                    int k = popcount(p.mask & t->rank_mask[r]);
                    if (k) s.ur[s.nu] = (signed char)r, s.uc[s.nu] = (signed char)k, ++s.nu;
                }
                out.push_back(s);
            }
        }
        if (structs_of.size() > H_CACHE_LIMIT) structs_of.clear();
        return structs_of.emplace(hand, std::move(out)).first->second;
    }

    std::vector<const Struct*> shortlist(const std::vector<Struct>& cands, const int* cnt) const {
        std::vector<const Struct*> out;
        if (cands.size() <= H_SHORTLIST) {
            for (const auto& s : cands) out.push_back(&s);
            return out;
        }
        // at most two a kind and rank pattern (the weakest), groups in the order they first appear
        std::vector<std::vector<const Struct*>> groups;
        auto same_group = [](const Struct* a, const Struct* b) {
            if (a->p.shape != b->p.shape || a->nu != b->nu) return false;
            for (int i = 0; i < a->nu; ++i)
                if (a->ur[i] != b->ur[i] || a->uc[i] != b->uc[i]) return false;
            return true;
        };
        for (const auto& s : cands) {
            bool placed = false;
            for (auto& g : groups)
                if (same_group(g[0], &s)) {
                    g.push_back(&s);
                    placed = true;
                    break;
                }
            if (!placed) groups.push_back({&s});
        }
        for (auto& g : groups) {
            if (g.size() <= 1) {
                out.insert(out.end(), g.begin(), g.end());
                continue;
            }
            std::stable_sort(g.begin(), g.end(), [](const Struct* a, const Struct* b) {
                return std::tie(a->p.order, a->p.mask) < std::tie(b->p.order, b->p.mask);
            });
            out.push_back(g[0]);
            out.push_back(g[1]);
        }
        if (out.size() <= H_SHORTLIST) return out;
        std::vector<std::pair<double, const Struct*>> keyed;
        for (const Struct* s : out) {
            double sum = 0;
            for (int i = 0; i < s->nu; ++i) {
                int r = s->ur[i], u = s->uc[i];
                sum += group_cost[r][cnt[r] - u] - group_cost[r][cnt[r]];
            }
            keyed.push_back({s->cost + sum, s});
        }
        std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
            return std::make_pair(a.first, a.second->p.mask) < std::make_pair(b.first, b.second->p.mask);
        });
        out.clear();
        for (size_t i = 0; i < H_SHORTLIST; ++i) out.push_back(keyed[i].second);
        return out;
    }

    void search(const std::vector<const Struct*>& cands, int* cnt, u64 used, std::vector<const Struct*>& chosen,
                double acc, double fill, int depth, int max_depth, double& best_cost,
                std::vector<const Struct*>& best) const {
        struct Scored {
            double tot;
            const Struct* s;
            double f;
        };
        std::vector<Scored> scored;
        for (const Struct* s : cands) {
            if (s->p.mask & used) continue;
            double f = fill;
            for (int i = 0; i < s->nu; ++i) {
                int r = s->ur[i], u = s->uc[i], k = cnt[r];
                f += group_cost[r][k - u] - group_cost[r][k];
            }
            double tot = acc + s->cost + f;
            scored.push_back({tot, s, f});
            if (tot < best_cost - 1e-9) {
                best_cost = tot;
                best = chosen;
                best.push_back(s);
            }
        }
        if (depth + 1 >= max_depth || scored.empty()) return;
        std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
            return std::make_pair(a.tot, a.s->p.mask) < std::make_pair(b.tot, b.s->p.mask);
        });
        std::vector<const Struct*> rest;
        for (const auto& x : scored) rest.push_back(x.s);
        size_t beam = std::min(scored.size(), size_t(H_BEAM[depth]));
        for (size_t j = 0; j < beam; ++j) {
            const Struct* s = scored[j].s;
            for (int i = 0; i < s->nu; ++i) cnt[s->ur[i]] -= s->uc[i];
            chosen.push_back(s);
            search(rest, cnt, used | s->p.mask, chosen, acc + s->cost, scored[j].f, depth + 1, max_depth, best_cost,
                   best);
            chosen.pop_back();
            for (int i = 0; i < s->nu; ++i) cnt[s->ur[i]] += s->uc[i];
        }
    }

    const HPlan& plan(u64 hand) {
        auto it = plans.find(hand);
        if (it != plans.end()) return it->second;
        int cnt[NRANKS] = {};
        for (u64 x = hand; x; x &= x - 1) cnt[t->rank_of[lowbit(x)]] += 1;
        double fill = 0;
        for (int r = 0; r < NRANKS; ++r)
            if (cnt[r]) fill += group_cost[r][cnt[r]];
        double best_cost = fill;
        std::vector<const Struct*> best, chosen;
        const auto& all = structs(hand);
        auto cands = shortlist(all, cnt);
        if (!cands.empty()) {
            int depth = std::min(4, popcount(hand) / min_struct);
            search(cands, cnt, 0, chosen, 0.0, fill, 0, depth, best_cost, best);
        }
        std::vector<Play> keep;
        u64 used = 0;
        for (const Struct* s : best) keep.push_back(s->p), used |= s->p.mask;
        HPlan out = regroup(hand, std::move(keep), hand & ~used);
        std::stable_sort(out.combos.begin(), out.combos.end(), [&](const Play& a, const Play& b) {
            double sa = strength(a), sb = strength(b);
            if (sa != sb) return sa < sb;
            if (a.size != b.size) return a.size < b.size;
            return a.mask < b.mask;
        });
        if (plans.size() > H_CACHE_LIMIT) plans.clear();
        return plans.emplace(hand, std::move(out)).first->second;
    }

    HPlan regroup(u64 hand, std::vector<Play> keep, u64 loose) const {
        HPlan out;
        out.hand = hand;
        out.combos = std::move(keep);
        // ranks in the order their lowest loose card comes (the reference's dict order)
        int ranks[NRANKS], nr = 0;
        u64 seen = 0;
        for (u64 x = loose; x; x &= x - 1) {
            int r = t->rank_of[lowbit(x)];
            if (!(seen >> r & 1)) seen |= 1ULL << r, ranks[nr++] = r;
        }
        for (int j = 0; j < nr; ++j) {
            int r = ranks[j];
            int cs[8], n = 0;
            for (u64 x = loose & t->rank_mask[r]; x; x &= x - 1) cs[n++] = lowbit(x);
            sort_few(cs, n, [&](int a, int b) {
                return std::make_pair(t->power[a], a) < std::make_pair(t->power[b], b);
            });
            int i = n;
            for (int size : split_parts[std::min(n, 8)]) {
                u64 m = 0;
                for (int q = i - size; q < i; ++q) m |= 1ULL << cs[q];
                Play p;
                if (t->classify(m, p)) {
                    out.combos.push_back(p);
                } else {
                    for (int q = i - size; q < i; ++q) {
                        Play s;
                        if (t->classify(1ULL << cs[q], s)) out.combos.push_back(s);
                        else out.stranded |= 1ULL << cs[q];
                    }
                }
                i -= size;
            }
            for (int q = 0; q < i; ++q) out.stranded |= 1ULL << cs[q];
        }
        return out;
    }

    HPlan without(const HPlan& plan, u64 played) const {
        std::vector<Play> keep;
        u64 loose = plan.stranded & ~played;
        for (const auto& c : plan.combos) {
            if (c.mask & played) loose |= c.mask & ~played;
            else keep.push_back(c);
        }
        return regroup(plan.hand & ~played, std::move(keep), loose);
    }

    // --- what the unseen cards could make (heuristic._Unseen) -----------------------------------------------
    struct Unseen {
        const Heuristic* h;
        u64 mask;
        int count;
        int top_key[9];
        bool bombs_ready = false;
        std::vector<Play> bombs;

        Unseen(const Heuristic* h_, u64 unseen) : h(h_), mask(unseen), count(popcount(unseen)) {
            const Tables& t = *h->t;
            for (int& b : top_key) b = -1;
            for (int r = 0; r < 13; ++r) {
                int pat = int(unseen >> (4 * r) & 15);
                if (pat) {
                    int top = h->top_of[r][pat];
                    for (int size = 1; size <= popcount(u64(pat)); ++size) top_key[size] = std::max(top_key[size], top);
                }
            }
            if (unseen >> 52) {  // jokers: count card by card
                int cnt[NRANKS] = {}, tops[NRANKS];
                for (int& x : tops) x = -1;
                for (u64 x = unseen; x; x &= x - 1) {
                    int c = lowbit(x), r = t.rank_of[c];
                    cnt[r] += 1;
                    tops[r] = std::max(tops[r], t.power[c]);
                }
                for (int& b : top_key) b = -1;
                for (int r = 0; r < NRANKS; ++r)
                    for (int size = 1; size <= std::min(cnt[r], 8); ++size) top_key[size] = std::max(top_key[size], tops[r]);
            }
        }
        bool bomb_beats(const Play& p, int most) {
            const Tables& t = *h->t;
            if (!bombs_ready) {
                bombs_ready = true;
                std::vector<std::pair<i64, Play>> best;  // by slot (bomb >> 32)
                std::vector<Play> all;
                for (const auto& b : h->bomb_pools) {
                    u64 src = b.per_rank ? strongest_per_rank(mask, b.per_rank) : mask;
                    all.clear();
                    t.combos(src, b.sizes, all);
                    std::sort(all.begin(), all.end(), by_order);
                    for (const auto& q : all) {
                        if (q.shape != b.shape || !q.bomb) continue;
                        i64 slot = q.bomb >> 32;
                        auto it = std::find_if(best.begin(), best.end(), [&](const auto& e) { return e.first == slot; });
                        if (it == best.end()) best.push_back({slot, q});
                        else if (q.bomb > it->second.bomb) it->second = q;
                    }
                }
                for (auto& e : best) bombs.push_back(e.second);
            }
            for (const auto& b : bombs)
                if (b.size <= most && t.beats(b, p)) return true;
            return false;
        }
        u64 strongest_per_rank(u64 pool, int k) const {
            const Tables& t = *h->t;
            u64 out = 0;
            for (int r = 0; r < NRANKS; ++r) {
                int cs[8], n = 0;
                for (u64 x = pool & t.rank_mask[r]; x && n < 8; x &= x - 1) cs[n++] = lowbit(x);
                sort_few(cs, n, [&](int a, int b) { return t.power[a] > t.power[b]; });
                for (int i = 0; i < std::min(n, k); ++i) out |= 1ULL << cs[i];
            }
            return out;
        }
        double share_below(i64 key) const {
            if (!count) return 1.0;
            int below = 0;
            for (u64 x = mask; x; x &= x - 1)
                if (h->t->power[lowbit(x)] < key) ++below;
            return double(below) / count;
        }
    };

    bool is_control(const Play& p, Unseen& unseen, int most) const {
        if (p.bomb) return !unseen.bomb_beats(p, most);
        bool ordinary;
        if (p.size > most) ordinary = true;
        else if (same_rank(p.shape)) ordinary = p.key > unseen.top_key[p.size];
        else ordinary = unseen.count < p.size;
        return ordinary && !(has_bombs && unseen.bomb_beats(p, most));
    }

    double strength_now(const Play& p, const Unseen& unseen, bool control) const {
        if (control) return 1.0;
        if (p.shape == SINGLE) return unseen.share_below(p.key);
        return strength(p);
    }

    struct Memo {
        std::vector<std::pair<u64, bool>> seen;
        int find(u64 m) const {
            for (const auto& e : seen)
                if (e.first == m) return e.second;
            return -1;
        }
    };
    bool control_of(const Play& p, Unseen& unseen, int most, Memo& memo) const {
        int got = memo.find(p.mask);
        if (got >= 0) return got;
        bool c = is_control(p, unseen, most);
        memo.seen.push_back({p.mask, c});
        return c;
    }

    std::pair<double, int> weights_of(const HPlan& plan, Unseen& unseen, int most, Memo& memo) const {
        double value = -H_STRANDED * popcount(plan.stranded);
        int weak = 0;
        for (const auto& c : plan.combos) {
            if (control_of(c, unseen, most, memo)) {
                value += w.control_value;
            } else {
                value -= cost(c);
                ++weak;
            }
        }
        return {value, weak};
    }

    // --- choosing (HeuristicPolicy.scores) -------------------------------------------------------------------
    struct Scored {
        double score;
        long tie;     // the order among equal scores: -1 for the pass, else the place among those scored
        size_t at;    // the action's index in the legal listing
    };
    static bool best_first(const Scored& a, const Scored& b) {
        return a.score != b.score ? a.score > b.score : a.tie < b.tie;
    }

    // the index in `legal` of the best action of the seat to move, whose view is read from the round
    size_t choose(const Round& r, const std::vector<Play>& legal, u64 played, u64 face_up) {
        if (legal.size() == 1) return 0;
        std::vector<Scored> out;
        scores(r, legal, played, face_up, out);
        return std::min_element(out.begin(), out.end(), best_first)->at;
    }

    // every action worth scoring with its score, in the listing's order (HeuristicPolicy.scores before its sort)
    void scores(const Round& r, const std::vector<Play>& legal, u64 played, u64 face_up, std::vector<Scored>& out) {
        out.clear();
        if (legal.size() == 1) {
            out.push_back({0.0, 0, 0});
            return;
        }
        int seat = r.to_move;
        u64 hand = r.hands[seat];
        const HPlan& plan = this->plan(hand);  // (cached; nothing below plans another hand)
        Unseen unseen(this, t->pack & ~hand & ~played & ~face_up);
        int most = 0, least = 99;
        bool any = false;
        for (int s = 0; s < r.n; ++s) {
            if (s == seat) continue;
            int k = popcount(r.hands[s]);
            if (!k) continue;
            most = any ? std::max(most, k) : k;
            least = any ? std::min(least, k) : k;
            any = true;
        }
        Memo memo;
        auto [value, weak] = weights_of(plan, unseen, most, memo);
        auto in_plan = [&](u64 m) {
            for (const auto& c : plan.combos)
                if (c.mask == m) return true;
            return false;
        };
        bool leading = !r.has_top;
        double ramp = std::max(0.0, double(H_URGENT_AT - least) / double(H_URGENT_AT - 1));
        double dump = w.dump + w.dump_urgent * ramp;
        std::vector<size_t> cands;
        if (leading) {
            for (size_t i = 0; i < legal.size(); ++i)
                if (in_plan(legal[i].mask)) cands.push_back(i);
            if (cands.empty())
                for (size_t i = 0; i < legal.size(); ++i) cands.push_back(i);
        } else {
            std::vector<size_t> breaking;
            for (size_t i = 0; i < legal.size(); ++i)
                if (legal[i].mask && !in_plan(legal[i].mask)) breaking.push_back(i);
            if (breaking.size() <= size_t(H_MAX_BREAKING)) {
                for (size_t i = 0; i < legal.size(); ++i) cands.push_back(i);
            } else {
                size_t half = H_MAX_BREAKING / 2;
                std::vector<u64> keep;
                for (size_t j = 0; j < half; ++j) keep.push_back(legal[breaking[j]].mask);
                for (size_t j = breaking.size() - half; j < breaking.size(); ++j) keep.push_back(legal[breaking[j]].mask);
                for (size_t i = 0; i < legal.size(); ++i) {
                    u64 m = legal[i].mask;
                    if (!m || in_plan(m) || std::find(keep.begin(), keep.end(), m) != keep.end()) cands.push_back(i);
                }
            }
        }
        double risk = 0.0;
        if (!leading && contest && least <= H_CONTEST_AT)
            risk = w.contest * (H_CONTEST_AT + 1 - least) / H_CONTEST_AT * popcount(hand);
        for (size_t j = 0; j < cands.size(); ++j) {
            const Play& a = legal[cands[j]];
            double sc;
            long i = long(j);
            if (!a.mask) {
                sc = w.pass_score - risk;
                i = -1;
            } else if (a.mask == hand) {
                sc = H_WIN;
            } else {
                bool ctl = control_of(a, unseen, most, memo);
                double gain;
                int weak_after;
                if (in_plan(a.mask)) {
                    gain = ctl ? -w.control_value : cost(a);
                    weak_after = weak - (ctl ? 0 : 1);
                } else {
                    HPlan after = without(plan, a.mask);
                    auto [v2, wa] = weights_of(after, unseen, most, memo);
                    gain = v2 - value;
                    weak_after = wa;
                }
                sc = gain + a.size * dump;
                if (leading) {
                    sc += w.size_bonus * (a.size - 1) / 4;
                    if (ctl && weak <= 1) sc += w.cash_controls;
                    if (!ctl && a.size <= 2 && least <= a.size) {
                        double pen = a.size == 1 ? w.short_lead_single : w.short_lead_pair;
                        sc -= pen - strength_now(a, unseen, ctl);
                    }
                } else {
                    if (!ctl && least > H_DEFEND_AT) {
                        double st = strength(a);
                        if (st > w.high_from) sc -= w.high_spend * (st - w.high_from) / (1 - w.high_from);
                    }
                    if (ctl && weak_after <= 1) sc += w.take_lead;
                    if (least <= H_DEFEND_AT) sc += w.defend + w.defend_high * strength_now(a, unseen, ctl);
                }
            }
            out.push_back({sc, i, cands[j]});
        }
    }
};

inline double monotonic_now() {  // time.perf_counter()'s clock on Linux
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

}  // namespace bigtwo
