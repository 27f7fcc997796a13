import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class GlossDecoder(nn.Module):
    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.out = nn.Linear(hidden, vocab_size)

    def forward(
        self, prev_tokens: Int[Tensor, "bk"], memory: Float[Tensor, "bk src hidden"]
    ) -> Float[Tensor, "bk vocab"]:
        h = self.embed(prev_tokens) + memory.mean(dim=1)
        return self.out(torch.tanh(h)).log_softmax(dim=-1)


def beam_search_step(
    decoder: GlossDecoder,
    alive_seq: Int[Tensor, "bk t"],
    topk_log_probs: Float[Tensor, "batch beam"],
    memory: Float[Tensor, "bk src hidden"],
    beam_size: int,
):
    batch_size = topk_log_probs.size(0)
    log_probs = decoder(alive_seq[:, -1], memory)
    vocab_size = log_probs.size(-1)
    scores = (log_probs + topk_log_probs.view(-1, 1)).reshape(batch_size, beam_size * vocab_size)
    topk_scores, topk_ids = scores.topk(beam_size, dim=-1)
    topk_beam_index = topk_ids.div(vocab_size, rounding_mode="floor")
    topk_ids = topk_ids.fmod(vocab_size)
    beam_offset = torch.arange(0, batch_size * beam_size, step=beam_size)
    batch_index = topk_beam_index + beam_offset.unsqueeze(1)
    select_indices = batch_index.view(-1)
    alive_seq = torch.cat([alive_seq.index_select(0, select_indices), topk_ids.view(-1, 1)], dim=-1)
    memory = memory.index_select(0, select_indices)
    return alive_seq, topk_scores, memory


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, beam_size, vocab_size = 2, 3, 11
    decoder = GlossDecoder(vocab_size, 8)
    memory = torch.randn(batch_size * beam_size, 5, 8)
    alive_seq = torch.randint(0, vocab_size, (batch_size * beam_size, 2))
    topk_log_probs = torch.randn(batch_size, beam_size)
    new_seq, new_scores, new_memory = beam_search_step(decoder, alive_seq, topk_log_probs, memory, beam_size)
    log_probs = decoder(alive_seq[:, -1], memory)
    for b in range(batch_size):
        cands = []
        for k in range(beam_size):
            for v in range(vocab_size):
                cands.append((log_probs[b * beam_size + k, v] + topk_log_probs[b, k], k, v))
        cands.sort(key=lambda c: -c[0].item())
        for j, (score, k, v) in enumerate(cands[:beam_size]):
            row = b * beam_size + j
            assert torch.allclose(new_scores[b, j], score)
            assert new_seq[row].tolist() == alive_seq[b * beam_size + k].tolist() + [v]
            assert torch.equal(new_memory[row], memory[b * beam_size + k])
    print("ok")
