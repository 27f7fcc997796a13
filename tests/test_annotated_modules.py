"""A parameter annotated with an nn.Module class of the file (`critic: Critic`) is an instance of it: its
calls run the class's forward on what __init__ builds without the constructor's arguments (a literal
`nn.Linear(hidden, 1)` head keeps its width 1). A caller's built instance (`Critic(6, 4)`) is the better
fact and replaces it. A size one argument gives a declared name holds for that name in every parameter
(calls.share_sizes), so a batch of one in `labels: "b n"` is not read as an index of size 1 against
`logits: "b n v"`.

Torch is the oracle: the flagged value loss broadcasts [B] against [B, 1] to [B, B].
"""
from .conftest import lint
from .snippets import run_snippet

VALUE_LOSS = """
    import torch
    import torch.nn as nn

    class Critic(nn.Module):
        def __init__(self, obs_dim, hidden):
            super().__init__()
            self.body = nn.Linear(obs_dim, hidden)
            self.v = nn.Linear(hidden, 1)

        def forward(self, x):
            return self.v(torch.relu(self.body(x)))

    def value_loss(critic: Critic, obs, returns):
        # obs: [B, O], returns: [B]
        values = critic(obs)
        return ((returns - values) ** 2).mean()

    SETTINGS = {"critic": Critic}

    if __name__ == "__main__":
        torch.manual_seed(0)
        critic = SETTINGS["critic"](4, 8)  # a class chosen by configuration: unknown to the analysis
        obs, returns = torch.randn(5, 4), torch.randn(5)
        out = value_loss(critic, obs, returns)
        with torch.no_grad():
            expected = ((returns - critic(obs).squeeze(-1)) ** 2).mean()
"""

UNANNOTATED = VALUE_LOSS.replace("critic: Critic", "critic").replace('SETTINGS["critic"](4, 8)', "Critic(4, 8)")

BATCH_OF_ONE = """
    import torch
    import torch.nn.functional as F
    from jaxtyping import Float, Int
    from torch import Tensor

    def token_logps(logits: Float[Tensor, "b n v"], labels: Int[Tensor, "b n"]) -> Float[Tensor, "b n"]:
        logp = F.log_softmax(logits, dim=-1)
        return torch.gather(logp, 2, labels.unsqueeze(2)).squeeze(-1)

    def score(model_fn, ids):
        logits = model_fn(ids)
        return token_logps(logits[:, :-1], ids[:, 1:])

    if __name__ == "__main__":
        torch.manual_seed(0)
        ids = torch.randint(0, 40, (1, 11))
        scores = torch.randn(1, 11, 40)
        out = score(lambda x: scores, ids)
        expected = torch.tensor([[float(scores[0, t].log_softmax(-1)[ids[0, t + 1]]) for t in range(10)]])
"""


def test_annotated_module_parameter_runs_its_forward(torch):
    found = [f for f in lint(VALUE_LOSS) if f.code == "GL006"]
    assert [f.line for f in found] == [17], [f"{f.line}: {f.message}" for f in lint(VALUE_LOSS)]
    scope = run_snippet(VALUE_LOSS)
    assert not torch.allclose(scope["out"], scope["expected"])  # [5] - [5, 1] averaged over [5, 5]


def test_without_the_annotation_a_driver_building_the_instance_decides(torch):
    # the parameter unannotated, the driver building Critic(4, 8) itself: the same finding
    assert [f.line for f in lint(UNANNOTATED) if f.code == "GL006"] == [17]


def test_a_declared_name_sized_by_one_argument_is_that_size_in_every_parameter(torch):
    # labels [1, 10] sizes b = 1; logits' own argument is untracked, so its b is that same 1, not another size
    assert lint(BATCH_OF_ONE) == []
    scope = run_snippet(BATCH_OF_ONE)
    assert torch.allclose(scope["out"], scope["expected"])
