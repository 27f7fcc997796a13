import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class BigramLM(nn.Module):
    def __init__(self, num_tokens: int):
        super().__init__()
        self.logits_table = nn.Parameter(torch.randn(num_tokens, num_tokens) * 2)

    def forward(self, x: Int[Tensor, "b n"]) -> Float[Tensor, "b n v"]:
        return self.logits_table[x]


@torch.no_grad()
def beam_search(net: nn.Module, prompts: Int[Tensor, "b n"], seq_len: int, beams: int = 4) -> tuple[Int[Tensor, "b beams n"], Float[Tensor, "b beams"]]:
    batch, orig_seq_len = prompts.shape
    out = prompts
    scores: Float[Tensor, "bk"] = torch.zeros(batch)
    batch_arange = torch.arange(batch)
    for _ in range(seq_len):
        log_probs = net(out)[:, -1].log_softmax(dim=-1)                       # (b * prev_beams, v)
        samples = log_probs.topk(beams, dim=-1).indices                       # (b * prev_beams, beams)
        scores = scores[:, None] + log_probs.gather(-1, samples)              # (b * prev_beams, beams)
        out = out.repeat_interleave(beams, dim=0)                             # (b * prev_beams * beams, n)
        out = torch.cat((out, samples.reshape(-1, 1)), dim=-1)
        scores = scores.reshape(batch, -1)                                    # (b, prev_beams * beams)
        curr_num_beams = scores.shape[-1]
        if curr_num_beams > beams:
            scores, sort_indices = scores.sort(dim=-1, descending=True)
            scores, top_beams_indices = scores[:, :beams], sort_indices[:, :beams]
            top_beams_indices = curr_num_beams * batch_arange[:, None] + top_beams_indices
            out = out[top_beams_indices.reshape(-1)]
        scores = scores.reshape(-1)
    return out.reshape(batch, -1, out.shape[-1])[..., orig_seq_len:], scores.reshape(batch, -1)


def reference_beam_search(net, prompt, seq_len, beams):
    hyps = [(0.0, prompt.tolist())]
    for _ in range(seq_len):
        cands = []
        for score, seq in hyps:
            log_probs = net(torch.tensor([seq]))[0, -1].log_softmax(dim=-1)
            top = log_probs.topk(beams)
            cands += [(score + v, seq + [t]) for v, t in zip(top.values.tolist(), top.indices.tolist())]
        hyps = sorted(cands, key=lambda c: -c[0])[:beams]
    return [seq[len(prompt):] for _, seq in hyps]


if __name__ == "__main__":
    torch.manual_seed(0)
    net = BigramLM(num_tokens=20)
    prompts = torch.randint(0, 20, (3, 5))
    out, scores = beam_search(net, prompts, seq_len=4, beams=3)
    for b in range(3):
        assert out[b].tolist() == reference_beam_search(net, prompts[b], 4, 3)
    print("ok")
