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
// for the deadline
py::tuple play_out(Heuristic& h, Round& r, u64 played, u64 face_up, int stop_seat, double deadline, int limit) {
    std::vector<u64> moves;
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
        r.apply(p, false);
        played |= p.mask;
        moves.push_back(p.mask);
    }
    return py::make_tuple(moves, late);
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
        .def("play_out", &play_out, py::arg("round"), py::arg("played"), py::arg("face_up") = 0,
             py::arg("stop_seat") = -1, py::arg("deadline") = -1.0, py::arg("limit") = 100000,
             "Play the heuristic in every seat until the round ends or `stop_seat` is to move (or the deadline): "
             "(masks played, stopped by the deadline)")
        .def_static("now", &monotonic_now, "The clock deadlines are read on (time.perf_counter's)");
}
