// The search bots' play-outs on the compiled round: the heuristic player (_search.hpp) choosing, the round
// stepping, until the round ends, a given seat is to move, or a deadline passes. Bound as bigtwo._core.Heuristic.
#include "_search.hpp"

namespace py = pybind11;
using namespace bigtwo;

namespace {

std::shared_ptr<Heuristic> make_heuristic(std::shared_ptr<Tables> t, const py::dict& d) {
    auto h = std::make_shared<Heuristic>();
    h->t = t;
    auto pos = as_vec(d, "kind_pos"), count = as_vec(d, "kind_count");  // numerators and counts, by shape
    if (pos.size() != size_t(NSHAPES) || count.size() != size_t(NSHAPES))
        throw std::invalid_argument("kind tables must have an entry a shape");
    for (int k = 0; k < NSHAPES; ++k) h->kind_pos[k] = double(pos[size_t(k)]), h->kind_count[k] = double(count[size_t(k)]);
    auto gc = d["group_cost"].cast<std::vector<std::vector<double>>>();
    if (gc.size() != size_t(NRANKS)) throw std::invalid_argument("group costs must have a row a rank");
    for (int r = 0; r < NRANKS; ++r) {
        if (gc[size_t(r)].size() != 9) throw std::invalid_argument("group costs must have nine columns");
        for (int k = 0; k < 9; ++k) h->group_cost[r][k] = gc[size_t(r)][size_t(k)];
    }
    auto split = d["split"].cast<std::vector<std::vector<int>>>();
    if (split.size() != 9) throw std::invalid_argument("splits must have nine rows");
    for (int k = 0; k < 9; ++k) h->split_parts[k] = split[size_t(k)];
    h->struct_shapes = u64(as_int(d, "struct_shapes"));
    h->struct_sizes = u64(as_int(d, "struct_sizes"));
    h->min_struct = int(as_int(d, "min_struct"));
    if (h->min_struct < 1) throw std::invalid_argument("min_struct must be positive");
    auto bombs = as_vec(d, "bomb_pools");  // rows of (shape, size bits, cards a rank or 0)
    for (size_t i = 0; i + 2 < bombs.size(); i += 3) h->bomb_pools.push_back({int(bombs[i]), u64(bombs[i + 1]), int(bombs[i + 2])});
    h->has_bombs = as_int(d, "has_bombs");
    h->contest = as_int(d, "contest");
    auto w = d["weights"].cast<std::vector<double>>();
    if (w.size() != 14) throw std::invalid_argument("the heuristic has fourteen weights");
    h->w = Weights{w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[12], w[13]};
    for (int r = 0; r < 13; ++r)
        for (int pat = 0; pat < 16; ++pat) {
            int top = -1;
            for (int s = 0; s < 4; ++s)
                if (pat >> s & 1) top = std::max(top, t->power[r * 4 + s]);
            h->top_of[r][pat] = top;
        }
    return h;
}

// play the heuristic's moves on `r` until the round ends, `stop_seat` is to move, `deadline` (a perf_counter
// value; negative: none) has passed, or `limit` moves; returns the masks played (0: a pass) and whether it stopped
// for the deadline (masks, their seats, late)
py::tuple play_out(Heuristic& h, Round& r, u64 played, u64 face_up, int stop_seat, double deadline, int limit) {
    std::vector<u64> moves;
    std::vector<int> seats;
    bool late = false;
    // (the GIL is kept: the heuristic's plan caches are shared by the bot's decisions)
    std::vector<Play> acts;
    while (!r.over && int(moves.size()) < limit) {
        if (r.to_move == stop_seat) break;
        if (deadline >= 0 && monotonic_now() >= deadline) {
            late = true;
            break;
        }
        r.legal(acts);
        Play p = acts[h.choose(r, acts, played, face_up)];
        seats.push_back(r.to_move);
        r.apply(p, false);
        played |= p.mask;
        moves.push_back(p.mask);
    }
    return py::make_tuple(moves, seats, late);
}

// every action worth scoring with its score (score, mask), best first, as HeuristicPolicy.scores lists them
py::list scores_of(Heuristic& h, const Round& r, const std::vector<Play>& acts, u64 played, u64 face_up,
                   std::vector<Heuristic::Scored>& buf) {
    h.scores(r, acts, played, face_up, buf);
    std::stable_sort(buf.begin(), buf.end(), Heuristic::best_first);
    py::list out;
    for (const auto& x : buf) out.append(py::make_tuple(x.score, acts[x.at].mask));
    return out;
}

// a round's history replayed from its deal (`dealt`, `first` to lead), with the heuristic's scores of every
// decision marked in `counted` that had two or more legal actions (bigtwo.bots.sampling.PlayModel): returns
// (status, decisions), status 0 when the history was replayed, 1 when an action of it is not legal on this deal,
// 2 when the deadline passed; a decision is (legal actions, the action taken, its scores best first)
py::tuple replay_scores(Heuristic& h, const std::vector<u64>& dealt, int first, const std::vector<u64>& masks,
                        const std::vector<int>& counted, double deadline) {
    py::list decisions;
    if (masks.size() != counted.size()) throw std::invalid_argument("one mark an action");
    u64 seen = 0;
    for (u64 h : dealt) {
        if (h & seen) return py::make_tuple(1, decisions);  // a card in two hands (the Game refuses the deal)
        seen |= h;
    }
    Round r;
    try {
        r = Round(h.t, dealt, first, 0);
    } catch (const std::invalid_argument&) {
        return py::make_tuple(1, decisions);
    }
    u64 played = 0;
    std::vector<Play> acts;
    std::vector<Heuristic::Scored> buf;
    for (size_t i = 0; i < masks.size(); ++i) {
        if (r.over) return py::make_tuple(1, decisions);
        r.legal(acts);
        if (counted[i] && acts.size() > 1) {
            if (deadline >= 0 && monotonic_now() >= deadline) return py::make_tuple(2, decisions);
            decisions.append(py::make_tuple(acts.size(), masks[i], scores_of(h, r, acts, played, 0, buf)));
        }
        auto it = std::find_if(acts.begin(), acts.end(), [&](const Play& p) { return p.mask == masks[i]; });
        if (it == acts.end()) return py::make_tuple(1, decisions);
        r.apply(*it, false);
        played |= masks[i];
    }
    return py::make_tuple(0, decisions);
}

}  // namespace

void bind_search(py::module_& m) {
    py::class_<Heuristic, std::shared_ptr<Heuristic>>(m, "Heuristic")
        .def(py::init(&make_heuristic), py::arg("tables"), py::arg("heuristic"),
             "The heuristic player on tables compiled by bigtwo.bots.native_playouts")
        .def("choose", [](Heuristic& h, Round& r, u64 played, u64 face_up) -> u64 {
            if (r.over) throw std::invalid_argument("the round is over");
            std::vector<Play> acts;
            r.legal(acts);
            return acts[h.choose(r, acts, played, face_up)].mask;
        }, py::arg("round"), py::arg("played"), py::arg("face_up") = 0,
           "The heuristic's action (its mask; 0 passes) for the seat to move; `played`: every card played so far")
        .def("scores", [](Heuristic& h, Round& r, u64 played, u64 face_up) {
            if (r.over) throw std::invalid_argument("the round is over");
            std::vector<Play> acts;
            std::vector<Heuristic::Scored> buf;
            r.legal(acts);
            return scores_of(h, r, acts, played, face_up, buf);
        }, py::arg("round"), py::arg("played"), py::arg("face_up") = 0,
           "The actions worth scoring with their scores, (score, mask) best first (HeuristicPolicy.scores)")
        .def("replay_scores", &replay_scores, py::arg("dealt"), py::arg("first"), py::arg("masks"),
             py::arg("counted"), py::arg("deadline") = -1.0,
             "A history replayed from its deal with the heuristic's scores of the marked decisions: (status, "
             "[(legal actions, action taken, [(score, mask), ...])]); status 1: an action is illegal, 2: too late")
        .def("play_out", &play_out, py::arg("round"), py::arg("played"), py::arg("face_up") = 0,
             py::arg("stop_seat") = -1, py::arg("deadline") = -1.0, py::arg("limit") = 100000,
             "Play the heuristic in every seat until the round ends or `stop_seat` is to move (or the deadline): "
             "(masks played, the seats that played them, stopped by the deadline)")
        .def_static("now", &monotonic_now, "The clock deadlines are read on (time.perf_counter's)");
}
