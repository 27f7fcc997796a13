import torch
import torch.nn as nn
from jaxtyping import Float, Int


class SoftPromptLM(nn.Module):
    def __init__(self, vocab: int, hidden: int, n_virtual: int):
        super().__init__()
        self.n_virtual = n_virtual
        self.prompt = nn.Parameter(torch.randn(n_virtual, hidden))
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, ids: Int[torch.Tensor, "b t"]) -> Float[torch.Tensor, "b p_plus_t v"]:
        prefix = self.prompt.unsqueeze(0).expand(ids.size(0), -1, -1)
        h, _ = self.rnn(torch.cat([prefix, self.embed(ids)], dim=1))
        return self.head(h)


def completion_logps(
    model: SoftPromptLM, prompt: Int[torch.Tensor, "b p"], completion: Int[torch.Tensor, "b c"]
) -> Float[torch.Tensor, "b c"]:
    ids = torch.cat([prompt, completion], dim=1)
    logits = model(ids)[:, model.n_virtual:]  # drop soft-prompt positions: [b, p + c, v]
    c = completion.size(1)
    window = logits[:, -c - 1 : -1]  # position i scores token i + 1: [b, c, v]
    return window.log_softmax(-1).gather(-1, completion.unsqueeze(-1)).squeeze(-1)


def accumulate(
    weights: Float[torch.Tensor, "s"], values: Float[torch.Tensor, "s ch"], ray_ids: Int[torch.Tensor, "s"], n_rays: int
) -> Float[torch.Tensor, "n ch"]:
    src = weights[:, None] * values
    out = values.new_zeros(n_rays, values.size(1))
    return out.scatter_add_(0, ray_ids[:, None].expand_as(src), src)


if __name__ == "__main__":
    torch.manual_seed(0)
    lm = SoftPromptLM(25, 12, n_virtual=2)
    prompt, completion = torch.randint(0, 25, (2, 4)), torch.randint(0, 25, (2, 3))
    with torch.no_grad():
        lp = completion_logps(lm, prompt, completion)
        ids = torch.cat([prompt, completion], 1)
        for b in range(2):
            for j in range(3):
                last = lm(ids[b : b + 1, : 4 + j])[0, -1]
                assert abs(lp[b, j].item() - last.log_softmax(-1)[completion[b, j]].item()) < 1e-5

    ray_ids = torch.tensor([0, 0, 2, 1, 2, 2, 0])
    w, rgb = torch.rand(7), torch.rand(7, 3)
    col = accumulate(w, rgb, ray_ids, 4)
    ref = torch.zeros(4, 3)
    for s in range(7):
        for ch in range(3):
            ref[ray_ids[s], ch] += w[s] * rgb[s, ch]
    assert torch.allclose(col, ref) and col[3].abs().sum() == 0
    print("ok")
