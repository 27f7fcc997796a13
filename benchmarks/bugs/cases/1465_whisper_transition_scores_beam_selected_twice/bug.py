import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class ToyDecoder(nn.Module):
    def __init__(self, vocab_size: int, dim: int):
        super().__init__()
        self.vocab_size = vocab_size
        self.embed = nn.Embedding(vocab_size, dim)
        self.proj = nn.Linear(dim, vocab_size)

    def forward(self, last_tokens: Int[Tensor, "rows"]) -> Float[Tensor, "rows vocab"]:
        return self.proj(torch.tanh(self.embed(last_tokens)))


@torch.no_grad()
def beam_search(model: ToyDecoder, bos: int, batch_size: int, num_beams: int, steps: int):
    vocab = model.vocab_size
    tokens = torch.full((batch_size * num_beams, 1), bos, dtype=torch.long)
    beam_scores = torch.zeros(batch_size, num_beams)
    beam_scores[:, 1:] = -1e9
    beam_scores = beam_scores.view(-1)
    step_scores, parents = [], []
    for _ in range(steps):
        logprobs = model(tokens[:, -1]).log_softmax(-1)
        step_scores.append(logprobs)
        cand = (beam_scores[:, None] + logprobs).view(batch_size, num_beams * vocab)
        top, flat = cand.topk(num_beams, dim=-1)
        rows = (flat // vocab + torch.arange(batch_size)[:, None] * num_beams).view(-1)
        tokens = torch.cat([tokens[rows], (flat % vocab).view(-1, 1)], dim=-1)
        parents.append(rows)
        beam_scores = top.view(-1)
    best = torch.arange(batch_size) * num_beams
    rows, trace = best, []
    for t in reversed(range(steps)):
        rows = parents[t][rows]
        trace.append(rows)
    beam_indices = torch.stack(trace[::-1], dim=1)
    return tokens[best, 1:], tuple(step_scores), beam_indices, beam_scores[best]


def split_scores_by_sequence(
    step_scores: tuple[Float[Tensor, "batch_beams vocab"], ...],
    beam_indices: Int[Tensor, "batch steps"],
) -> tuple[Float[Tensor, "batch vocab"], ...]:
    """Keep, at every step, only the score row of the beam each returned token was generated on."""
    return tuple(
        torch.stack([scores_t[beam_indices[b, t]] for b in range(beam_indices.size(0))])
        for t, scores_t in enumerate(step_scores)
    )


def compute_transition_scores(
    sequences: Int[Tensor, "batch steps"],
    scores: tuple[Float[Tensor, "rows vocab"], ...],
    beam_indices: Int[Tensor, "batch steps"],
    vocab_size: int,
) -> Float[Tensor, "batch steps"]:
    flat_scores = torch.stack(scores).reshape(len(scores), -1).transpose(0, 1)
    indices = sequences + beam_indices * vocab_size
    return flat_scores.gather(0, indices)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ToyDecoder(vocab_size=50, dim=16)
    sequences, step_scores, beam_indices, final_scores = beam_search(model, bos=1, batch_size=2, num_beams=4, steps=6)
    per_sequence_scores = split_scores_by_sequence(step_scores, beam_indices)
    transition = compute_transition_scores(sequences, per_sequence_scores, beam_indices, model.vocab_size)
    print("sum of transition scores:", transition.sum(-1).tolist())
    print("final beam scores       :", final_scores.tolist())
