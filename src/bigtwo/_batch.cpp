// bigtwo._core.Batch: the batched environment's compiled half (see _batch.hpp), bound for bigtwo.envs.native_batch.
#include "_batch.hpp"

namespace bigtwo {

namespace {

std::vector<int> int_list(const py::dict& d, const char* name) {
    auto v = as_vec(d, name);
    return std::vector<int>(v.begin(), v.end());
}

void check_card(int c) {
    if (c < 0 || c >= NCARDS) throw std::invalid_argument("a card outside the 54 of one deck");
}

std::unique_ptr<Batch> make_batch(std::shared_ptr<Tables> tables, py::object tables_low, const py::dict& plan) {
    auto b = std::make_unique<Batch>();
    b->tables = tables;
    if (!tables_low.is_none()) b->tables_low = tables_low.cast<std::shared_ptr<Tables>>();
    b->n = int(as_int(plan, "players"));
    b->num_envs = int(as_int(plan, "num_envs"));
    if (b->n < 2 || b->n > 8) throw std::invalid_argument("2 to 8 players");
    if (b->num_envs < 1) throw std::invalid_argument("at least one game");
    i64 hi = as_int(plan, "seed_high"), lo = as_int(plan, "seed_low");  // the seed as two 62-bit halves
    b->seed = __int128(hi) * (__int128(1) << 62) + lo;
    b->skip_forced = as_int(plan, "skip_forced");
    DealPlan& dp = b->deal;
    dp.pack = int_list(plan, "deal_pack");
    for (int c : dp.pack) check_card(c);
    dp.removed = u64(as_int(plan, "deal_removed"));
    dp.hands_n = int(as_int(plan, "deal_hands"));
    dp.upto = int(as_int(plan, "deal_upto"));
    dp.order = int_list(plan, "deal_order");
    if (dp.hands_n < b->n || dp.hands_n > 9 || int(dp.order.size()) != dp.hands_n || dp.upto < 0 ||
        dp.upto > int(dp.pack.size()))
        throw std::invalid_argument("a deal plan out of range");
    for (int h : dp.order)
        if (h < 0 || h >= dp.hands_n) throw std::invalid_argument("a deal plan out of range");
    dp.leftover = int(as_int(plan, "leftover"));
    dp.shown = as_int(plan, "leftover_shown");
    dp.dealer = int(as_int(plan, "dealer"));
    if (dp.dealer < 0 || dp.dealer >= b->n) throw std::invalid_argument("the dealer is not a seat");
    dp.low_order = int_list(plan, "low_order");
    dp.low_order_twos_low = int_list(plan, "low_order_twos_low");
    dp.diamond_order = int_list(plan, "diamond_order");
    for (auto* v : {&dp.low_order, &dp.low_order_twos_low, &dp.diamond_order})
        for (int c : *v) check_card(c);
    if (b->tables_low && dp.low_order_twos_low.empty()) throw std::invalid_argument("the twos-low order is missing");
    dp.lead_face = int(as_int(plan, "lead_face"));
    if (dp.lead_face >= NCARDS) throw std::invalid_argument("the lead card is not a card");
    dp.lead_must = as_int(plan, "lead_must");
    dp.redeal_four_twos = as_int(plan, "redeal_four_twos");
    FeaturePlan& f = b->f;
    f.width = int(as_int(plan, "width"));
    f.pack = u64(as_int(plan, "feature_pack"));
    f.face_up = as_int(plan, "face_up");
    f.known = as_int(plan, "known");
    f.history = int(as_int(plan, "history"));
    f.kinds = int(as_int(plan, "kinds"));
    f.action_kinds = int(as_int(plan, "action_kinds"));
    auto sk = int_list(plan, "state_kind"), ak = int_list(plan, "action_kind"), rk = int_list(plan, "rank_of");
    if (sk.size() != NSHAPES || ak.size() != NSHAPES || rk.size() != NCARDS)
        throw std::invalid_argument("feature tables of the wrong size");
    for (int k = 0; k < NSHAPES; ++k) {
        if (sk[k] >= f.kinds || ak[k] >= f.action_kinds) throw std::invalid_argument("a kind index out of range");
        f.state_kind[k] = sk[k], f.action_kind[k] = ak[k];
    }
    for (int c = 0; c < NCARDS; ++c) {
        if (rk[c] < 0 || rk[c] >= NRANKS) throw std::invalid_argument("a rank out of range");
        f.rank_of[c] = rk[c];
    }
    if (f.width < 1 || f.width > NCARDS || f.history < 0 || (f.pack >> f.width))
        throw std::invalid_argument("a feature layout out of range");
    int n = b->n;
    f.card_rows = 3 + n + (f.face_up ? 1 : 0) + (f.known ? n - 1 : 0) + f.history;
    f.state_size = f.card_rows * f.width + n * (FeaturePlan::CARDS_LEFT_ONE_HOT + 5) + 1 + f.kinds +
                   f.history * n + f.history;
    f.action_size = 2 * f.width + f.action_kinds + 6;
    if (f.state_size != as_int(plan, "state_size") || f.action_size != as_int(plan, "action_size"))
        throw std::invalid_argument("the feature sizes differ from the encoders'");
    b->slots.resize(size_t(b->num_envs));
    return b;
}

py::list finished_list(Batch& b) {
    py::list out;
    for (auto& fr : b.finished) {
        py::array_t<u64> hist({py::ssize_t(fr.history.size()), py::ssize_t(2)});
        u64* h = hist.mutable_data();
        for (auto& e : fr.history) *h++ = u64(e.first), *h++ = e.second;
        out.append(py::make_tuple(fr.env, fr.episode, fr.order, fr.hands, fr.dealt, hist, fr.low));
    }
    b.finished.clear();
    return out;
}

// every game's pending decision: (envs, seats, state rows, action rows, offsets, action masks, twos-low flags,
// finished rounds)
py::tuple output(Batch& b) {
    const FeaturePlan& f = b.f;
    py::ssize_t B = b.num_envs, A = 0;
    for (auto& s : b.slots) A += py::ssize_t(s.legal.size());
    py::array_t<float> state({B, py::ssize_t(f.state_size)});
    py::array_t<float> actions({A, py::ssize_t(f.action_size)});
    py::array_t<i64> offsets(B + 1);
    py::array_t<u64> masks(A);
    float* sp = state.mutable_data();
    float* ap = actions.mutable_data();
    std::memset(sp, 0, sizeof(float) * size_t(B) * size_t(f.state_size));
    std::memset(ap, 0, sizeof(float) * size_t(A) * size_t(f.action_size));
    i64* op = offsets.mutable_data();
    u64* mp = masks.mutable_data();
    py::list envs(B), seats(B);
    py::object low = py::none();
    if (b.tables_low) {
        py::array_t<bool> lows(B);
        bool* lp = lows.mutable_data();
        for (py::ssize_t i = 0; i < B; ++i) lp[i] = b.slots[size_t(i)].low;
        low = lows;
    }
    op[0] = 0;
    for (py::ssize_t i = 0; i < B; ++i) {
        const Slot& s = b.slots[size_t(i)];
        envs[size_t(i)] = py::int_(i);
        seats[size_t(i)] = py::int_(s.r.to_move);
        b.write_state(s, sp + i * f.state_size);
        b.write_actions(s, ap + op[i] * f.action_size);
        for (size_t a = 0; a < s.legal.size(); ++a) mp[op[i] + i64(a)] = s.legal[a].mask;
        op[i + 1] = op[i] + i64(s.legal.size());
    }
    return py::make_tuple(envs, seats, state, actions, offsets, masks, low, finished_list(b));
}

// --- pickling: every game as integers -----------------------------------------------------------------------
constexpr i64 STATE_FORMAT = 1;

py::bytes get_state(const Batch& b) {
    std::vector<i64> v{STATE_FORMAT, b.num_envs, b.n, b.steps, b.moves};
    for (const Slot& s : b.slots) {
        const Round& r = s.r;
        v.insert(v.end(), {s.episode, s.actions, s.low, i64(s.face_up)});
        for (int p = 0; p < b.n; ++p) v.insert(v.end(), {i64(s.played[p]), i64(s.known[p]), i64(s.dealt[p])});
        for (int p = 0; p < b.n; ++p) v.insert(v.end(), {i64(r.hands[p]), r.finished[p], r.order[p]});
        v.insert(v.end(), {r.to_move, r.has_top, i64(r.top.mask), r.top_seat, i64(r.passed), r.blocked,
                           i64(r.required), i64(r.active), r.nfinished, r.over, r.decisions, r.since_open,
                           r.stock_pos, i64(r.stock.size())});
        v.insert(v.end(), r.stock.begin(), r.stock.end());
        v.push_back(i64(s.history.size()));
        for (auto& e : s.history) v.insert(v.end(), {e.first, i64(e.second)});
        v.push_back(i64(s.legal.size()));
        for (auto& p : s.legal) v.push_back(i64(p.mask));
    }
    return py::bytes(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(i64));
}

void set_state(Batch& b, const py::bytes& blob) {
    std::string raw = blob;
    if (raw.size() % sizeof(i64)) throw std::invalid_argument("not a batch's state");
    std::vector<i64> v(raw.size() / sizeof(i64));
    std::memcpy(v.data(), raw.data(), raw.size());
    size_t at = 0;
    auto next = [&]() -> i64 {
        if (at >= v.size()) throw std::invalid_argument("a batch's state cut short");
        return v[at++];
    };
    if (next() != STATE_FORMAT || next() != b.num_envs || next() != b.n)
        throw std::invalid_argument("a state of another batch");
    b.steps = next(), b.moves = next();
    auto classify = [&](const Tables& t, u64 m) {
        Play p;
        if (m && !t.classify(m, p)) throw std::invalid_argument("a state holding a play that is no combination");
        return p;
    };
    for (Slot& s : b.slots) {
        s.episode = next(), s.actions = int(next()), s.low = next();
        s.face_up = u64(next());
        if (s.low && !b.tables_low) throw std::invalid_argument("a state of another batch");
        std::vector<u64> hands(size_t(b.n), 0);
        s.r = Round(s.low ? b.tables_low : b.tables, hands, 0, 0);  // the shell: every field is set below
        Round& r = s.r;
        const Tables& t = *r.t;
        for (int p = 0; p < b.n; ++p) s.played[p] = u64(next()), s.known[p] = u64(next()), s.dealt[p] = u64(next());
        for (int p = 0; p < b.n; ++p) r.hands[p] = u64(next()), r.finished[p] = int(next()), r.order[p] = int(next());
        r.to_move = int(next());
        r.has_top = next();
        u64 top = u64(next());
        r.top = r.has_top ? classify(t, top) : Play();
        r.top_seat = int(next()), r.passed = u64(next()), r.blocked = int(next()), r.required = u64(next());
        r.active = u64(next()), r.nfinished = int(next()), r.over = next(), r.decisions = int(next());
        r.since_open = int(next()), r.stock_pos = int(next());
        r.stock.resize(size_t(next()));
        for (auto& c : r.stock) c = int(next());
        s.history.resize(size_t(next()));
        for (auto& e : s.history) e.first = int(next()), e.second = u64(next());
        s.legal.resize(size_t(next()));
        for (auto& p : s.legal) p = classify(t, u64(next()));
    }
    if (at != v.size()) throw std::invalid_argument("a batch's state runs on");
}

}  // namespace

void bind_batch(py::module_& m) {
    py::class_<Batch>(m, "Batch")
        .def(py::init(&make_batch), py::arg("tables"), py::arg("tables_low"), py::arg("plan"),
             "N rounds in lockstep writing the learning features; the plan is bigtwo.envs.native_batch's")
        .def("reset", [](Batch& b) {
            b.reset();
            return output(b);
        }, "Deal every game afresh (episode 0); every game's first decision, and any round that ended on the way")
        .def("step", [](Batch& b, py::array_t<i64, py::array::c_style | py::array::forcecast> choices) {
            if (choices.ndim() != 1 || choices.shape(0) != b.num_envs)
                throw std::invalid_argument(std::to_string(choices.size()) + " choices for " +
                                            std::to_string(b.num_envs) + " decisions");
            b.step(choices.data());
            return output(b);
        }, "Play each game's choice (an index into its legal actions); the next decisions and the rounds that ended")
        .def("decisions", [](Batch& b) { return output(b); }, "The pending decisions again (features written anew)")
        .def("hands", [](const Batch& b, int i) {
            if (i < 0 || i >= b.num_envs) throw std::out_of_range("no such game");
            const Round& r = b.slots[size_t(i)].r;
            return std::vector<u64>(r.hands, r.hands + r.n);
        }, "Game i's hands (every seat's: for tests)")
        .def("replace_hands", [](Batch& b, int i, std::vector<u64> hands) {
            // for tests of hidden information: the other seats' cards moved between their hands
            if (i < 0 || i >= b.num_envs) throw std::out_of_range("no such game");
            Round& r = b.slots[size_t(i)].r;
            if (int(hands.size()) != b.n) throw std::invalid_argument("a hand a seat");
            u64 before = 0, after = 0;
            for (int p = 0; p < b.n; ++p) {
                if (popcount(hands[size_t(p)]) != popcount(r.hands[p]))
                    throw std::invalid_argument("every hand keeps its size");
                before |= r.hands[p], after |= hands[size_t(p)];
            }
            if (before != after || hands[size_t(r.to_move)] != r.hands[r.to_move])
                throw std::invalid_argument("only the other seats' cards may move between their hands");
            for (int p = 0; p < b.n; ++p) r.hands[p] = hands[size_t(p)];
            for (int p = 0; p < 8; ++p) r.index_built[p] = false;
        })
        .def_property_readonly("steps", [](const Batch& b) { return b.steps; })
        .def_property_readonly("moves", [](const Batch& b) { return b.moves; })
        .def_property_readonly("episodes", [](const Batch& b) {
            std::vector<i64> out;
            for (auto& s : b.slots) out.push_back(s.episode);
            return out;
        })
        .def("get_state", &get_state, "Every game as bytes (for pickling)")
        .def("set_state", &set_state, "Every game from get_state's bytes (a batch made from the same plan)");
}

}  // namespace bigtwo
