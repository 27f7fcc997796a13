"""GL006: a per-row column [K, 1] meeting a per-row vector [K], where the vector is a row max
(`next_q.max(1)[0]`, `torch.max(q, dim=1)`, `.amax(1)`) and the rows may be those a boolean mask
picked (`rew[alive]` and `critic(obs[alive])` hold `alive.sum()` rows each); and the pairwise-distance
idiom (`xx + yy - 2 * x @ y.T`), whose [N, M] table is wanted, staying silent.

Every flagged program binds `res` where the two meet; torch shows the [K, K] outer product.
"""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

FLAGGED = [
    ("module-method-masked-bootstrap", """
        import torch
        import torch.nn as nn

        class Learner(nn.Module):
            def __init__(self, obs_size, n_moves):
                super().__init__()
                self.target = nn.Linear(obs_size, n_moves)

            def bootstrap(self, rew, nxt, ended):
                # rew: [B, 1], nxt: [B, D], ended: [B]
                live = ended == 0
                boot = self.target(nxt[live]).max(dim=1).values
                res = rew[live] + 0.9 * boot
                return res

        if __name__ == "__main__":
            res = Learner(3, 2).bootstrap(torch.randn(6, 1), torch.randn(6, 3), torch.tensor([0, 1, 0, 0, 1, 0]))
    """, 14),
    ("jaxtyping-function-form-unpacked", """
        import torch
        from jaxtyping import Float
        from torch import Tensor

        def td_target(next_q: Float[Tensor, "n a"], reward_col: Float[Tensor, "n 1"], gamma: float):
            best, _ = torch.max(next_q, dim=1)
            return reward_col + gamma * best

        if __name__ == "__main__":
            res = td_target(torch.randn(5, 4), torch.randn(5, 1), 0.99)
    """, 8),
    ("docstring-amax-inverted-mask", """
        import torch

        def masked_targets(q_next, r, terminal, discount=0.99):
            \"\"\"
            Args:
                q_next: next-state values of shape (batch, actions)
                r: rewards of shape (batch, 1)
                terminal (torch.BoolTensor): shape (batch,)
            \"\"\"
            res = r[~terminal] + discount * q_next[~terminal].amax(1)
            return res

        if __name__ == "__main__":
            res = masked_targets(torch.randn(7, 3), torch.randn(7, 1), torch.tensor([0, 0, 1, 0, 0, 0, 1]).bool())
    """, 11),
]

CLEAN = [
    ("keepdim-max-against-the-column", """
        import torch
        from jaxtyping import Float
        from torch import Tensor

        def td_target(next_q: Float[Tensor, "n a"], reward_col: Float[Tensor, "n 1"], gamma: float):
            best, _ = torch.max(next_q, dim=1, keepdim=True)
            return reward_col + gamma * best

        if __name__ == "__main__":
            res = td_target(torch.randn(5, 4), torch.randn(5, 1), 0.99)
    """, (5, 1)),
    ("column-flattened-under-the-mask", """
        import torch
        import torch.nn as nn

        class Learner(nn.Module):
            def __init__(self, obs_size, n_moves):
                super().__init__()
                self.target = nn.Linear(obs_size, n_moves)

            def bootstrap(self, rew, nxt, ended):
                # rew: [B, 1], nxt: [B, D], ended: [B]
                live = ended == 0
                boot = self.target(nxt[live]).max(dim=1).values
                res = rew[live].squeeze(1) + 0.9 * boot
                return res

        if __name__ == "__main__":
            res = Learner(3, 2).bootstrap(torch.randn(6, 1), torch.randn(6, 3), torch.tensor([0, 1, 0, 0, 1, 0]))
    """, (4,)),
    ("two-masks-different-rows", """
        import torch

        def mixed(q: torch.Tensor, r: torch.Tensor, ended: torch.Tensor):
            # q: [B, A], r: [B, 1], ended: [B]
            alive = ended == 0
            dead = ended == 1
            res = r[dead] + q[alive].max(1)[0][:1]
            return res

        if __name__ == "__main__":
            res = mixed(torch.randn(4, 2), torch.randn(4, 1), torch.tensor([0, 1, 0, 0]))
    """, (1, 1)),
    ("pairwise-squared-distances", """
        import torch

        def sq_dists(a, b):
            # a: [N, D], b: [N, D]
            aa = (a * a).sum(dim=1, keepdim=True)
            bb = (b * b).sum(dim=1)
            res = aa + bb - 2 * a @ b.t()
            return res

        if __name__ == "__main__":
            res = sq_dists(torch.randn(4, 3), torch.randn(4, 3))
    """, (4, 4)),
]


@pytest.mark.parametrize("name,code,line", FLAGGED, ids=[c[0] for c in FLAGGED])
def test_a_row_max_meeting_a_column_is_reported_and_torch_makes_the_outer_product(name, code, line, torch):
    found = [(f.line, f.code) for f in lint(code)]
    assert (line, "GL006") in found, found
    res = run_snippet(code)["res"]  # torch: [K, K], no error
    assert res.dim() == 2 and res.shape[0] == res.shape[1] > 1


@pytest.mark.parametrize("name,code,shape", CLEAN, ids=[c[0] for c in CLEAN])
def test_correct_forms_stay_silent(name, code, shape, torch):
    assert [f for f in lint(code) if f.code == "GL006"] == []
    assert tuple(run_snippet(code)["res"].shape) == shape


def test_the_pairwise_idiom_is_the_distance_table_torch_computes(torch):
    """Why the idiom is silent: its [N, M] table is the squared distances, what the author wants."""
    a, b = torch.randn(4, 3), torch.randn(5, 3)
    table = (a * a).sum(dim=1, keepdim=True) + (b * b).sum(dim=1) - 2 * a @ b.t()
    assert torch.allclose(table, torch.cdist(a, b) ** 2, atol=1e-4)


def test_the_message_names_the_mask_rows_and_the_fix():
    message = next(f for f in lint(FLAGGED[0][1]) if f.code == "GL006")
    assert "live.sum()" in message.message and "max over dim 1" in message.message
    assert "keepdim=True" in (message.help or message.message)


def test_a_mask_made_again_in_a_loop_keeps_its_count_unknown(torch):
    code = """
        import torch

        def per_round(q, r, ended):
            # q: [B, A], r: [B, 1], ended: [B, T]
            outs = []
            for t in range(2):
                keep = ended[:, t] == 0
                col = r[keep]
                keep = ended[:, t + 1] == 0
                outs.append(col[:1] + q[keep].max(1)[0][:1])
            return outs
    """
    assert [f for f in lint(code) if f.code == "GL006"] == []


def test_writing_the_outer_product_back_under_the_mask_raises_in_torch(torch):
    """The reported DQN form: the [K, K] sum written into the K masked rows of a column."""
    r, q, ended = torch.randn(6, 1), torch.randn(6, 2), torch.tensor([0, 1, 0, 0, 1, 0]).bool()
    out = r.clone()
    with pytest.raises(RuntimeError, match="shape mismatch"):
        out[~ended] = r[~ended] + q[~ended].max(1)[0]
    out[~ended] = r[~ended] + q[~ended].max(1, keepdim=True)[0]  # the fix


# A replay buffer sampled key by key (`{k: v[idx] for k, v in store.items()}`) keeps each stored
# tensor's shape past its rows: an action stored as a column [N, 1] is still one in the batch.
REPLAY_SAMPLE = """
    import torch
    import torch.nn as nn

    class Critic(nn.Module):
        def __init__(self, obs_size, n_moves):
            super().__init__()
            self.body = nn.Linear(obs_size, n_moves)

        def forward(self, obs):
            return self.body(obs)

    def taken_values(critic, batch):
        q = critic(batch["obs"])
        return q.gather(1, batch["act"].unsqueeze(1)).squeeze(1)

    def draw(store, n):
        picks = torch.randint(0, store["obs"].shape[0], (n,))
        return {name: col[picks].clone() for name, col in store.items()}

    if __name__ == "__main__":
        store = {"obs": torch.randn(50, 3), "act": torch.randint(0, 2, ({stored}))}
        res = taken_values(Critic(3, 2), draw(store, 8))
"""


def test_a_column_kept_through_a_sampled_batch_dict_reaches_the_gather(torch):
    bad = textwrap.dedent(REPLAY_SAMPLE).replace("{stored}", "50, 1")
    assert "GL001" in [f.code for f in lint(bad) if f.line == 15]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        run_snippet(bad)


def test_actions_stored_flat_stay_silent(torch):
    good = textwrap.dedent(REPLAY_SAMPLE).replace("{stored}", "50,")
    assert lint(good) == []
    assert tuple(run_snippet(good)["res"].shape) == (8,)


# A loss asked for one value per sample (`reduction="none"`) is [B]: importance weights kept as a
# column [B, 1] turn the weighted mean into the mean of the [B, B] outer product.
UNREDUCED_FLAGGED = [
    ("docstring-cross-entropy-weights-column", """
        import torch
        import torch.nn.functional as F

        def weighted_ce(scores, target, sample_w):
            \"\"\"
            Args:
                scores: logits of shape (n, classes)
                target: class ids of shape (n,)
                sample_w: weights of shape (n,)
            \"\"\"
            per_item = F.cross_entropy(scores, target, reduction="none")
            w_col = sample_w.view(-1, 1)
            res = per_item * w_col
            return res

        if __name__ == "__main__":
            res = weighted_ce(torch.randn(6, 4), torch.randint(0, 4, (6,)), torch.rand(6))
    """, 14),
    ("jaxtyping-huber-prioritized-replay", """
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float
        from torch import Tensor

        class PrioritizedLoss:
            def __call__(self, q: Float[Tensor, "b"], tgt: Float[Tensor, "b"], is_w: Float[Tensor, "b 1"]):
                return is_w * F.huber_loss(q, tgt, reduction="none")

        if __name__ == "__main__":
            res = PrioritizedLoss()(torch.randn(5), torch.randn(5), torch.rand(5, 1))
    """, 9),
]

UNREDUCED_CLEAN = [
    ("weights-flattened", """
        import torch
        import torch.nn.functional as F

        def weighted_ce(scores, target, sample_w):
            # scores: [n, C], target: [n], sample_w: [n, 1]
            per_item = F.cross_entropy(scores, target, reduction="none")
            res = per_item * sample_w.squeeze(1)
            return res

        if __name__ == "__main__":
            res = weighted_ce(torch.randn(6, 4), torch.randint(0, 4, (6,)), torch.rand(6, 1))
    """, (6,)),
    ("loss-already-averaged", """
        import torch
        import torch.nn.functional as F

        def scaled(q, tgt, is_w):
            # q: [b], tgt: [b], is_w: [b, 1]
            res = is_w * F.smooth_l1_loss(q, tgt)
            return res

        if __name__ == "__main__":
            res = scaled(torch.randn(5), torch.randn(5), torch.rand(5, 1))
    """, (5, 1)),
]


@pytest.mark.parametrize("name,code,line", UNREDUCED_FLAGGED, ids=[c[0] for c in UNREDUCED_FLAGGED])
def test_a_per_sample_loss_meeting_a_weight_column_is_reported(name, code, line, torch):
    found = [f for f in lint(code) if f.code == "GL006"]
    assert [f.line for f in found] == [line], found
    assert 'reduction="none"' in found[0].message and "keepdim" not in found[0].message
    res = run_snippet(code)["res"]
    assert res.dim() == 2 and res.shape[0] == res.shape[1] > 1  # torch: the [B, B] outer product


@pytest.mark.parametrize("name,code,shape", UNREDUCED_CLEAN, ids=[c[0] for c in UNREDUCED_CLEAN])
def test_per_sample_losses_used_right_stay_silent(name, code, shape, torch):
    assert [f for f in lint(code) if f.code == "GL006"] == []
    assert tuple(run_snippet(code)["res"].shape) == shape


def test_a_mask_changed_in_place_between_reads_keeps_its_count_unknown(torch):
    """`keep[0] = False` after `r[keep]`: the two reads pick different rows, and torch raises on the sum."""
    code = """
        import torch

        def shifted(q: torch.Tensor, r: torch.Tensor, ended: torch.Tensor):
            # q: [B, A], r: [B, 1], ended: [B]
            keep = ended == 0
            col = r[keep]
            keep[0] = False
            res = col + q[keep].max(1)[0]
            return res

        if __name__ == "__main__":
            res = shifted(torch.randn(4, 2), torch.randn(4, 1), torch.tensor([0, 1, 0, 0]))
    """
    assert [f for f in lint(code) if f.code == "GL006"] == []
    assert tuple(run_snippet(code)["res"].shape) == (3, 2)  # 3 rows against 2 entries: not [K, K]


def test_a_kept_gather_column_meeting_a_row_max_is_reported_once_on_the_gather(torch):
    code = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        def q_loss(net, target, obs, act, rew, nxt, gamma=0.99):
            q = net(obs).gather(1, act.unsqueeze(1))
            nv = target(nxt).max(1)[0]
            y = rew + gamma * nv
            return F.mse_loss(q, y)

        if __name__ == "__main__":
            net, tgt = nn.Linear(4, 2), nn.Linear(4, 2)
            q_loss(net, tgt, torch.randn(8, 4), torch.randint(0, 2, (8,)), torch.randn(8), torch.randn(8, 4))
    """
    found = [f for f in lint(code) if f.code == "GL006"]
    assert [f.line for f in found] == [7], found
    with pytest.warns(UserWarning, match="target size"):  # torch: broadcasts to [8, 8], only warns
        run_snippet(code)


def test_a_loss_module_built_unreduced_counts_like_the_functional_form(torch):
    code = """
        import torch
        import torch.nn as nn

        class WeightedRegression(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.head = nn.Linear(d, 3)
                self.crit = nn.SmoothL1Loss(reduction="none")

            def forward(self, h, y, w):
                # h: [B, D], y: [B], w: [B, 1]
                pred = self.head(h).mean(-1)
                res = self.crit(pred, y) * w
                return res

        if __name__ == "__main__":
            res = WeightedRegression(4)(torch.randn(6, 4), torch.randn(6), torch.rand(6, 1))
    """
    assert [f.line for f in lint(code) if f.code == "GL006"] == [14]
    res = run_snippet(code)["res"]
    assert tuple(res.shape) == (6, 6)
    reduced = code.replace('nn.SmoothL1Loss(reduction="none")', "nn.SmoothL1Loss()")
    assert [f for f in lint(reduced) if f.code == "GL006"] == []
    assert tuple(run_snippet(reduced)["res"].shape) == (6, 1)


# A row max made a column again (`.max(1)[0].unsqueeze(1)`, `[:, None]`) is the keepdim column in
# two steps: against per-row rewards [B] it makes [B, B].
REGROWN = """
    import torch

    def bellman(next_q, rewards, gamma=0.9):
        # next_q: [B, A], rewards: [B{reward_col}]
        peak = next_q.max(dim=1)[0]
        boot = {regrow}
        res = rewards + gamma * boot
        return res

    if __name__ == "__main__":
        res = bellman(torch.randn(5, 3), torch.randn(5{reward_size}))
"""


@pytest.mark.parametrize("regrow", ["peak.unsqueeze(1)", "peak[:, None]", "peak.unsqueeze(-1)"])
def test_a_row_max_made_a_column_again_against_rewards_is_reported(regrow, torch):
    code = textwrap.dedent(REGROWN).format(regrow=regrow, reward_col="", reward_size="")
    found = [f for f in lint(code) if f.code == "GL006"]
    assert [f.line for f in found] == [8], found
    assert "unsqueezed row max" in found[0].message
    assert tuple(run_snippet(code)["res"].shape) == (5, 5)


def test_a_row_max_made_a_column_against_reward_columns_stays_silent(torch):
    code = textwrap.dedent(REGROWN).format(regrow="peak.unsqueeze(1)", reward_col=", 1", reward_size=", 1")
    assert [f for f in lint(code) if f.code == "GL006"] == []
    assert tuple(run_snippet(code)["res"].shape) == (5, 1)


def test_a_row_max_subtracted_from_its_own_scores_stays_silent(torch):
    code = """
        import torch

        def stable(scores):
            # scores: [B, C]
            top = scores.max(1)[0].unsqueeze(1)
            res = (scores - top).exp()
            return res

        if __name__ == "__main__":
            res = stable(torch.randn(4, 6))
    """
    assert [f for f in lint(code) if f.code == "GL006"] == []
    assert tuple(run_snippet(code)["res"].shape) == (4, 6)


# Positions kept as a column (`argmax(1, keepdim=True)`, `topk(1)`, `max(1, keepdim=True)[1]`) compared
# with per-row labels [B]: the [B, B] table, so an accuracy counts every prediction against every label.
ACCURACY = """
    import torch

    class Scorer:
        def hits(self, logits: torch.Tensor, labels: torch.Tensor):
            \"\"\"
            Args:
                logits: shape (batch, classes)
                labels: shape (batch,)
            \"\"\"
            guess = {guess}
            res = {compare}
            return res

    if __name__ == "__main__":
        res = Scorer().hits(torch.randn(6, 4), torch.randint(0, 4, (6,)))
"""

ACCURACY_SPELLINGS = [
    ("argmax-keepdim-eq-operator", "logits.argmax(dim=1, keepdim=True)", "guess == labels"),
    ("topk-one-indices-eq-method", "logits.topk(1, dim=1)[1]", "guess.eq(labels)"),
    ("torch-topk-function-form", "torch.topk(logits, 1, dim=-1).indices", "torch.eq(guess, labels)"),
    ("max-keepdim-positions", "torch.max(logits, 1, keepdim=True)[1]", "guess.eq(labels)"),
]


@pytest.mark.parametrize("name,guess,compare", ACCURACY_SPELLINGS, ids=[s[0] for s in ACCURACY_SPELLINGS])
def test_a_kept_position_column_compared_with_labels_is_reported(name, guess, compare, torch):
    code = textwrap.dedent(ACCURACY).format(guess=guess, compare=compare)
    found = [f for f in lint(code) if f.code == "GL006"]
    assert [f.line for f in found] == [12], found
    assert tuple(run_snippet(code)["res"].shape) == (6, 6)  # torch: every guess against every label


@pytest.mark.parametrize("compare", ["guess.view(-1) == labels", "guess.eq(labels.view_as(guess))",
                                     "guess.squeeze(1).eq(labels)"])
def test_kept_positions_compared_row_by_row_stay_silent(compare, torch):
    code = textwrap.dedent(ACCURACY).format(guess="logits.argmax(dim=1, keepdim=True)", compare=compare)
    assert [f for f in lint(code) if f.code == "GL006"] == []
    assert run_snippet(code)["res"].numel() == 6


def test_kept_positions_used_as_a_gather_index_stay_silent(torch):
    code = textwrap.dedent(ACCURACY).format(guess="logits.topk(1, dim=1).indices",
                                            compare="logits.gather(1, guess).squeeze(1) - logits.mean(1)")
    assert lint(code) == []
    assert tuple(run_snippet(code)["res"].shape) == (6,)


# A distribution's log-probability of one action per sample is [B]; advantages kept as a column
# [B, 1] make the [B, B] table (every log-prob weighted by every sample's advantage).
LOG_PROB = [
    ("categorical-function-comments", """
        import torch
        from torch.distributions import Categorical

        def actor_loss(logits, acts, adv_col):
            # logits: [T, A], acts: [T], adv_col: [T, 1]
            lp = Categorical(logits=logits).log_prob(acts)
            res = -(lp * adv_col{flat})
            return res

        if __name__ == "__main__":
            res = actor_loss(torch.randn(5, 3), torch.randint(0, 3, (5,)), torch.randn(5, 1))
    """, 8),
    ("normal-method-summed-over-action-dims", """
        import torch
        import torch.nn as nn
        from torch.distributions import Normal

        class Actor(nn.Module):
            def __init__(self, obs_size, act_size):
                super().__init__()
                self.mu = nn.Linear(obs_size, act_size)

            def surrogate(self, obs, act, adv):
                # obs: [N, D], act: [N, K], adv: [N, 1]
                logp = Normal(self.mu(obs), 1.0).log_prob(act).sum(-1)
                res = logp * adv{flat}
                return res

        if __name__ == "__main__":
            res = Actor(3, 2).surrogate(torch.randn(6, 3), torch.randn(6, 2), torch.randn(6, 1))
    """, 14),
]


@pytest.mark.parametrize("name,code,line", LOG_PROB, ids=[c[0] for c in LOG_PROB])
def test_log_probs_against_an_advantage_column(name, code, line, torch):
    bad = textwrap.dedent(code).replace("{flat}", "")
    found = [f for f in lint(bad) if f.code == "GL006"]
    assert [f.line for f in found] == [line], found
    res = run_snippet(bad)["res"]
    assert res.dim() == 2 and res.shape[0] == res.shape[1] > 1
    good = textwrap.dedent(code).replace("{flat}", ".squeeze(-1)")
    assert [f for f in lint(good) if f.code == "GL006"] == []
    assert run_snippet(good)["res"].dim() == 1


# What a helper returns counts as what it is: per-sample losses computed in a method of the class
# (or a function of the module) meet the weight column in the caller.
HELPER_LOSSES = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    def td_losses(q_net, obs, act, target):
        q = q_net(obs).gather(1, act.unsqueeze(1)).squeeze(1)
        return F.smooth_l1_loss(q, target, reduction="none"){reduce}

    class Learner:
        def __init__(self):
            self.q_net = nn.Linear(4, 2)

        def update(self, obs, act, target, weights):
            \"\"\"
            Args:
                obs: shape (batch, 4)
                act: shape (batch,)
                target: shape (batch,)
                weights: shape (batch,)
            \"\"\"
            w = weights.unsqueeze(1)
            res = td_losses(self.q_net, obs, act, target) * w
            return res

    if __name__ == "__main__":
        res = Learner().update(torch.randn(6, 4), torch.randint(0, 2, (6,)), torch.randn(6), torch.rand(6))
"""


def test_per_sample_losses_returned_by_a_helper_meet_the_weight_column(torch):
    bad = textwrap.dedent(HELPER_LOSSES).replace("{reduce}", "")
    assert [f.line for f in lint(bad) if f.code == "GL006"] == [23]
    assert tuple(run_snippet(bad)["res"].shape) == (6, 6)
    good = textwrap.dedent(HELPER_LOSSES).replace("{reduce}", ".mean()")
    assert [f for f in lint(good) if f.code == "GL006"] == []
    assert tuple(run_snippet(good)["res"].shape) == (6, 1)


# The same mask written out at each read (`r[done == 0]`, `q[~done.bool()]`) picks the same rows; a mask
# drawn afresh at each read (`torch.rand(n) < p`) does not, and stays unknown.
INLINE_MASK = """
    import torch
    import torch.nn as nn

    def bootstrap(net, r, s2, done, gamma=0.9):
        # r: [B, 1], s2: [B, D], done: [B]
        nv = net(s2[{mask}]).max(1)[0]
        res = r[{mask}] + gamma * nv
        return res

    if __name__ == "__main__":
        torch.manual_seed(0)
        res = bootstrap(nn.Linear(3, 2), torch.randn(6, 1), torch.randn(6, 3), torch.tensor([0, 1, 0, 0, 0, 1]))
"""


@pytest.mark.parametrize("mask", ["done == 0", "~done.bool()", "done.logical_not()", "(done < 1) & (done >= 0)"])
def test_the_same_mask_written_at_each_read_counts_the_same_rows(mask, torch):
    code = textwrap.dedent(INLINE_MASK).replace("{mask}", mask)
    assert [f.line for f in lint(code) if f.code == "GL006"] == [8]
    assert tuple(run_snippet(code)["res"].shape) == (4, 4)


def test_a_mask_drawn_afresh_at_each_read_stays_unknown(torch):
    code = textwrap.dedent(INLINE_MASK).replace("{mask}", "torch.rand(6) < 2.0")
    assert [f for f in lint(code) if f.code == "GL006"] == []


# Written in place (`x += y`, `x *= y`, `x.mul_(y)`), the [B, B] broadcast cannot fit the written
# tensor: torch raises, and the message says so instead of promising a silent outer product.
IN_PLACE = """
    import torch

    def step(q, a, r, w):
        # q: [B, A], a: [B], r: [B], w: [B, 1]
        {body}
        return res

    if __name__ == "__main__":
        res = step(torch.randn(4, 3), torch.randint(0, 3, (4,)), torch.randn(4), torch.rand(4, 1))
"""


@pytest.mark.parametrize("body", [
    "res = q.gather(1, a.unsqueeze(1))\n    res += r",
    "res = q.max(1)[0]\n    res *= w",
    "res = q.max(dim=1).values\n    res.mul_(w)",
])
def test_an_in_place_meeting_is_reported_as_the_error_torch_raises(body, torch):
    code = textwrap.dedent(IN_PLACE).replace("{body}", body)
    found = [f for f in lint(code) if f.code == "GL006"]
    assert len(found) == 1 and "torch raises" in found[0].message and "silently" not in found[0].message, found
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        run_snippet(code)


def test_weights_made_a_column_right_at_the_loss_are_still_reported(torch):
    """`(losses * w.view(-1, 1)).mean()`: a per-sample loss is never meant to meet every weight."""
    code = """
        import torch
        import torch.nn.functional as F

        def weighted(pred, y, w):
            # pred: [B], y: [B], w: [B]
            losses = F.mse_loss(pred, y, reduction="none")
            res = losses * w.view(-1, 1)
            return res

        if __name__ == "__main__":
            res = weighted(torch.randn(5), torch.randn(5), torch.rand(5))
    """
    assert [f.line for f in lint(code) if f.code == "GL006"] == [8]
    assert tuple(run_snippet(code)["res"].shape) == (5, 5)
