// bigtwo._core's Python bindings. The engine itself (tables, the round, play-outs) is in _engine.hpp, so that
// other translation units (the batched environment) share it; this file only exposes it to Python.
#include "_engine.hpp"
#include "_batch.hpp"

namespace py = pybind11;
using namespace bigtwo;

// a round's state as bigtwo.game.Game mirrors it (Round.mirror)
static py::tuple mirror_tuple(const Round& r) {
    py::list hands(r.n);
    for (int s = 0; s < r.n; ++s) hands[size_t(s)] = py::int_(r.hands[s]);
    py::tuple finished(r.nfinished);
    for (int i = 0; i < r.nfinished; ++i) finished[size_t(i)] = py::int_(r.finished[i]);
    return py::make_tuple(hands, r.to_move, r.has_top, r.has_top ? r.top.mask : u64(0), r.top_seat, r.passed,
                          r.blocked, r.required, r.active, finished, r.over, r.stock_pos, r.since_open);
}

PYBIND11_MODULE(_core, m) {
    m.doc() = "bigtwo's compiled round: the play phase on 64-bit card masks, from tables compiled by bigtwo.native";
    m.attr("NSHAPES") = int(NSHAPES);

    py::class_<Tables, std::shared_ptr<Tables>>(m, "Tables")
        .def(py::init<const py::dict&>())
        .def("classify", [](const Tables& t, u64 mask) -> py::object {
            Play p;
            if (mask & ~t.pack || !t.classify(mask, p)) return py::none();
            return play_tuple(p);
        }, "The play (mask, shape, category, key, value, class, order, bomb) the cards make, or None")
        .def("beats", [](const Tables& t, u64 a, u64 b) {
            Play p, q;
            if ((a | b) & ~t.pack || !t.classify(a, p) || !t.classify(b, q))
                throw std::invalid_argument("not a combination");
            return t.beats(p, q);
        })
        .def("combos", [](const Tables& t, u64 hand) {
            std::vector<Play> out;
            t.combos(hand & t.pack, t.all_sizes(), out);
            std::sort(out.begin(), out.end(), by_order);
            std::vector<u64> masks;
            for (auto& p : out) masks.push_back(p.mask);
            return masks;
        }, "Every combination the hand holds, lowest first")
        .def("random_games", [](std::shared_ptr<Tables> t, int n, i64 games, u64 seed) {
            // deal and play `games` rounds by uniform random choice; returns (decisions, games)
            if (n < 2 || n > 8) throw std::invalid_argument("2 to 8 players");
            i64 decisions = 0;
            {
                py::gil_scoped_release nogil;
                Rng rng(seed);
                for (i64 g = 0; g < games; ++g) {
                    Round r = deal_round(t, n, rng);
                    decisions += r.playout([&](const std::vector<Play>& a) { return rng.below(a.size()); }, 100000);
                }
            }
            return py::make_tuple(decisions, games);
        }, py::arg("players"), py::arg("games"), py::arg("seed") = 0);

    py::class_<Round>(m, "Round")
        .def(py::init([](std::shared_ptr<Tables> t, std::vector<u64> hands, int first, u64 required) {
            return Round(std::move(t), hands, first, required);
        }), py::arg("tables"), py::arg("hands"), py::arg("first"), py::arg("required") = 0)
        .def("legal_masks", [](Round& r) {
            std::vector<u64> out;
            for (auto& p : r.listing()) out.push_back(p.mask);
            return out;
        }, "The legal actions' masks in the reference's order (0: the pass)")
        .def("apply", [](Round& r, u64 mask) {
            if (r.over) throw std::invalid_argument("the round is over");
            for (auto& p : r.listing())
                if (p.mask == mask) return r.apply(p, true);
            throw std::invalid_argument("not a legal action now");
        }, "Take a legal action (its mask; 0 passes), keeping what undo needs")
        .def_static("from_state", [](std::shared_ptr<Tables> t, std::vector<u64> hands, int to_move,
                                     py::object top_mask, int top_seat, u64 passed, int blocked, u64 required,
                                     u64 active, std::vector<int> finished, int since_open,
                                     std::vector<int> stock, int stock_pos) {
            // a round in the middle of its play phase, as the Python round holds it (bigtwo.native.round_of)
            int n = int(hands.size());
            if (n < 2 || n > 8 || to_move < 0 || to_move >= n || int(finished.size()) > n)
                throw std::invalid_argument("not a position: seats out of range");
            Round r(t, std::vector<u64>(size_t(n), 0), 0, 0);  // the shell: every field is set below
            r.over = false;
            r.nfinished = 0;
            for (int s = 0; s < n; ++s) {
                if (hands[size_t(s)] & ~t->pack) throw std::invalid_argument("a hand holds a card outside the pack");
                r.hands[s] = hands[size_t(s)];
            }
            for (int s : finished) {
                if (s < 0 || s >= n) throw std::invalid_argument("a finished seat is not a seat");
                r.finished[r.nfinished++] = s;
            }
            r.to_move = to_move, r.passed = passed, r.blocked = blocked, r.required = required;
            r.active = active, r.since_open = since_open, r.top_seat = -1, r.has_top = false;
            for (int c : stock)
                if (c < 0 || c >= NCARDS || !(t->pack >> c & 1)) throw std::invalid_argument("a stock card outside the pack");
            if (stock_pos < 0 || stock_pos > int(stock.size())) throw std::invalid_argument("the stock position is off");
            r.stock = std::move(stock), r.stock_pos = stock_pos;
            if (!top_mask.is_none()) {
                u64 m = top_mask.cast<u64>();
                if (!t->classify(m, r.top)) throw std::invalid_argument("the trick's play is not a combination");
                r.has_top = true, r.top_seat = top_seat;
                if (top_seat < 0 || top_seat >= n) throw std::invalid_argument("the trick's seat is not a seat");
            }
            return r;
        }, py::arg("tables"), py::arg("hands"), py::arg("to_move"), py::arg("top_mask"), py::arg("top_seat"),
           py::arg("passed"), py::arg("blocked"), py::arg("required"), py::arg("active"), py::arg("finished"),
           py::arg("since_open"), py::arg("stock") = std::vector<int>(), py::arg("stock_pos") = 0)
        .def("step", [](Round& r, u64 mask) {
            // Game's fast path: take a legal action (its mask; 0 passes) and return the seat that took it, or
            // -1 - that seat where the action ended the round; ValueError when it is not legal now (Game then
            // says why in words)
            if (r.over) throw std::invalid_argument("the round is over");
            int seat = r.to_move;
            for (auto& p : r.listing())
                if (p.mask == mask) {
                    r.apply(p, true);
                    return r.over ? -1 - seat : seat;
                }
            throw std::invalid_argument("not a legal action now");
        }, "Take a legal action (its mask; 0 passes), keeping what undo needs; returns the seat that acted "
           "(-1 - the seat where the action ended the round)")
        .def("legal_objects", [](Round& r, py::dict plays) -> py::object {
            // the legal actions as the objects ``plays`` holds for their masks (bigtwo.game's Play of each
            // mask), in legal_masks' order; None where one is missing (Game then makes it and asks again)
            const auto& listing = r.listing();
            py::list out(listing.size());
            for (size_t i = 0; i < listing.size(); ++i) {
                py::int_ key(listing[i].mask);
                PyObject* got = PyDict_GetItemWithError(plays.ptr(), key.ptr());  // borrowed
                if (!got) {
                    if (PyErr_Occurred()) throw py::error_already_set();
                    return py::none();
                }
                out[i] = py::reinterpret_borrow<py::object>(got);
            }
            return std::move(out);
        }, py::arg("plays"))
        .def("mirror", [](const Round& r) { return mirror_tuple(r); },
             "(hands, to move, has top, top mask, top seat, passed, blocked, required, active, finished, over, "
             "stock position, actions since the trick opened): what bigtwo.game.Game holds of the round")
        .def("undo_states", [](const Round& r) {
            // the state before each action taken (oldest first), as mirror() gives it: what Game's own undo
            // needs when a round hands its position back to the Python engine
            py::list out;
            for (const auto& s : r.undo_stack) {
                Round x;  // an empty shell holding the snapshot, for mirror_tuple
                x.n = r.n;
                std::copy(s.hands, s.hands + 8, x.hands);
                x.to_move = s.to_move, x.top_seat = s.top_seat, x.blocked = s.blocked, x.nfinished = s.nfinished;
                x.top = s.top, x.has_top = s.has_top, x.passed = s.passed, x.required = s.required;
                x.active = s.active, x.over = false, x.since_open = s.since_open, x.stock_pos = s.stock_pos;
                std::copy(s.finished, s.finished + 8, x.finished);
                out.append(mirror_tuple(x));
            }
            return out;
        })
        .def_readonly("stock_pos", &Round::stock_pos)
        .def_readonly("since_open", &Round::since_open)
        .def("undo", &Round::undo)
        .def("clone", [](const Round& r) { return Round(r); })
        .def_readonly("to_move", &Round::to_move)
        .def_readonly("over", &Round::over)
        .def_readonly("decisions", &Round::decisions)
        .def_property_readonly("hands", [](const Round& r) { return std::vector<u64>(r.hands, r.hands + r.n); })
        .def_property_readonly("top", [](const Round& r) -> py::object {
            return r.has_top ? py::object(play_tuple(r.top)) : py::none();
        })
        .def_property_readonly("state", [](const Round& r) {
            // (hands, to move, top mask, top seat, passed, blocked, required, active, finished, over, stock position)
            return py::make_tuple(std::vector<u64>(r.hands, r.hands + r.n), r.to_move, r.has_top ? r.top.mask : 0,
                                  r.top_seat, r.passed, r.blocked, r.required, r.active,
                                  std::vector<int>(r.finished, r.finished + r.nfinished), r.over, r.stock_pos);
        })
        .def_property_readonly("finishing_order", [](const Round& r) -> py::object {
            if (!r.over) return py::none();
            return py::cast(std::vector<int>(r.order, r.order + r.n));
        })
        .def_property_readonly("cards_left", [](const Round& r) {
            std::vector<int> out;
            for (int s = 0; s < r.n; ++s) out.push_back(popcount(r.hands[s]));
            return out;
        })
        .def("random_playout", [](Round& r, u64 seed) {
            Rng rng(seed);
            return r.playout([&](const std::vector<Play>& a) { return rng.below(a.size()); }, 100000);
        }, "Play to the end by uniform random choice; returns the decisions taken")
        .def("greedy_playout", [](Round& r) {
            return r.playout([](const std::vector<Play>&) { return size_t(0); }, 100000);
        }, "Play to the end taking the lowest legal action each turn (GreedyBot's choice)");
    bind_batch(m);  // the batched environment (_batch.cpp), after the Tables it takes
    void bind_search(py::module_&); bind_search(m);  // the search bots' play-outs (_search.cpp)
}
