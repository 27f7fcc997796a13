import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor


class TinyCausalLM(nn.Module):
    def __init__(self, vocab: int, dim: int, max_len: int):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.mix = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids: Int[Tensor, "b t"]) -> Float[Tensor, "b t v"]:
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1)))
        counts = torch.arange(1, ids.size(1) + 1).view(1, -1, 1)
        h = torch.tanh(self.mix(x.cumsum(1) / counts))  # causal: position t sees tokens <= t
        return self.head(h)


def compute_loss(
    logits: Float[Tensor, "b t v"], labels: Int[Tensor, "b t"], target_mask: Bool[Tensor, "b t"]
) -> Float[Tensor, "b"]:
    """Negative log-likelihood of the target tokens; the logits at step t score token t + 1."""
    shifted_labels = torch.roll(labels, shifts=-1, dims=1)
    shifted_mask = torch.roll(target_mask, shifts=-1, dims=1)
    logp = torch.log_softmax(logits, dim=-1)
    token_logp = logp.gather(-1, shifted_labels.unsqueeze(-1)).squeeze(-1)
    return -(token_logp * shifted_mask).sum(1)


def score_examples(model: TinyCausalLM, prefixes: list, targets: list) -> Float[Tensor, "b"]:
    rows, masks = [], []
    for p, t in zip(prefixes, targets):
        rows.append(torch.cat([p, t]))
        masks.append(torch.cat([torch.zeros(len(p), dtype=torch.bool), torch.ones(len(t), dtype=torch.bool)]))
    ids, mask = torch.stack(rows), torch.stack(masks)
    return compute_loss(model(ids), ids, mask)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyCausalLM(vocab=12, dim=16, max_len=8).eval()
    # the second example has no prefix: every token is a target (e.g. unconditional scoring)
    prefixes = [torch.tensor([3, 7, 1]), torch.tensor([], dtype=torch.long)]
    targets = [torch.tensor([4, 4, 9]), torch.tensor([5, 2, 8, 11, 6, 0])]
    with torch.no_grad():
        nll = score_examples(model, prefixes, targets)
        ref = []
        for p, t in zip(prefixes, targets):
            ids = torch.cat([p, t])
            logp = torch.log_softmax(model(ids[None])[0], dim=-1)
            ref.append(-sum(logp[i - 1, ids[i]] for i in range(max(len(p), 1), len(ids))))
        ref = torch.stack(ref)
    print("nll:", [round(v, 4) for v in nll.tolist()], "reference:", [round(v, 4) for v in ref.tolist()])
