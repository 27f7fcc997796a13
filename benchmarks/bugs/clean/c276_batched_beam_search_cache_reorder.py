import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class ToyDecoder(nn.Module):
    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, vocab_size)

    def step(self, tokens: Int[Tensor, "rows"], state: Float[Tensor, "rows hidden"]) -> tuple[Float[Tensor, "rows vocab"], Float[Tensor, "rows hidden"]]:
        state = self.cell(self.embed(tokens), state)
        return self.out(state).log_softmax(dim=-1), state


def beam_search(
    decoder: ToyDecoder, init_state: Float[Tensor, "batch hidden"], bos_id: int, num_beams: int, steps: int
) -> tuple[Int[Tensor, "batch beams len"], Float[Tensor, "batch beams"]]:
    batch_size = init_state.size(0)
    state = init_state.repeat_interleave(num_beams, dim=0)                      # [B*K, H]
    sequences = torch.full((batch_size * num_beams, 1), bos_id, dtype=torch.long)
    beam_scores = torch.zeros(batch_size, num_beams)
    beam_scores[:, 1:] = float("-inf")                                          # start from one beam
    beam_scores = beam_scores.view(-1)
    for _ in range(steps):
        log_probs, state = decoder.step(sequences[:, -1], state)               # [B*K, V]
        vocab_size = log_probs.size(-1)
        next_scores = (log_probs + beam_scores.unsqueeze(-1)).view(batch_size, num_beams * vocab_size)
        top_scores, top_ids = next_scores.topk(num_beams, dim=1)               # [B, K]
        beam_idx = torch.div(top_ids, vocab_size, rounding_mode="floor")        # [B, K]
        token_idx = top_ids % vocab_size                                        # [B, K]
        batch_beam_idx = (beam_idx + torch.arange(batch_size).unsqueeze(1) * num_beams).view(-1)
        sequences = torch.cat([sequences.index_select(0, batch_beam_idx), token_idx.view(-1, 1)], dim=1)
        state = state.index_select(0, batch_beam_idx)
        beam_scores = top_scores.view(-1)
    return sequences.view(batch_size, num_beams, -1), beam_scores.view(batch_size, num_beams)


def reference_beam(decoder, init_state, bos_id, num_beams, steps):
    hyps = [(0.0, [bos_id], init_state)]
    for _ in range(steps):
        candidates = []
        for score, tokens, state in hyps:
            log_probs, new_state = decoder.step(torch.tensor([tokens[-1]]), state.unsqueeze(0))
            for v in range(log_probs.size(-1)):
                candidates.append((score + log_probs[0, v].item(), tokens + [v], new_state[0]))
        candidates.sort(key=lambda c: -c[0])
        hyps = candidates[:num_beams]
    return hyps


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = ToyDecoder(vocab_size=9, hidden=6)
    init_state = torch.randn(2, 6)
    with torch.no_grad():
        sequences, scores = beam_search(decoder, init_state, bos_id=1, num_beams=3, steps=3)
        for b in range(2):
            ref = reference_beam(decoder, init_state[b], 1, 3, 3)
            assert sequences[b].tolist() == [tokens for _, tokens, _ in ref]
            assert torch.allclose(scores[b], torch.tensor([s for s, _, _ in ref]), atol=1e-5)
    print("ok")
