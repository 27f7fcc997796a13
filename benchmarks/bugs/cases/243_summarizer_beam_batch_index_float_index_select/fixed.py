import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class Decoder(nn.Module):
    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.generator = nn.Linear(hidden, vocab_size)

    def forward(
        self, tokens: Int[Tensor, "rows"], state: Float[Tensor, "rows hidden"]
    ) -> tuple[Float[Tensor, "rows vocab"], Float[Tensor, "rows hidden"]]:
        state = self.cell(self.embeddings(tokens), state)
        return F.log_softmax(self.generator(state), dim=-1), state


def tile(x: Tensor, count: int) -> Tensor:
    return x.repeat_interleave(count, dim=0)


def fast_translate_batch(
    decoder: Decoder, src_state: Float[Tensor, "batch hidden"], beam_size: int, max_length: int, start_token: int
) -> tuple[Int[Tensor, "batch beam steps"], Float[Tensor, "batch beam"]]:
    batch_size = src_state.size(0)
    vocab_size = decoder.generator.out_features
    dec_states: Float[Tensor, "rows hidden"] = tile(src_state, beam_size)
    batch_offset = torch.arange(batch_size, dtype=torch.long)
    beam_offset: Int[Tensor, "batch"] = torch.arange(0, batch_size * beam_size, step=beam_size, dtype=torch.long)
    alive_seq: Int[Tensor, "rows 1"] = torch.full([batch_size * beam_size, 1], start_token, dtype=torch.long)
    topk_log_probs = torch.tensor([0.0] + [float("-inf")] * (beam_size - 1)).repeat(batch_size)

    for step in range(max_length):
        log_probs, dec_states = decoder(alive_seq[:, -1], dec_states)
        log_probs += topk_log_probs.view(-1).unsqueeze(1)
        curr_scores = log_probs.reshape(-1, beam_size * vocab_size)
        topk_scores, topk_ids = curr_scores.topk(beam_size, dim=-1)
        topk_log_probs = topk_scores

        topk_beam_index: Int[Tensor, "batch beam"] = topk_ids.div(vocab_size, rounding_mode="floor")
        topk_ids = topk_ids.fmod(vocab_size)

        batch_index = topk_beam_index + beam_offset[:topk_beam_index.size(0)].unsqueeze(1)
        select_indices = batch_index.view(-1)
        alive_seq = torch.cat([alive_seq.index_select(0, select_indices), topk_ids.view(-1, 1)], -1)
        dec_states = dec_states.index_select(0, select_indices)

    return alive_seq[:, 1:].view(batch_size, beam_size, -1), topk_log_probs


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = Decoder(vocab_size=15, hidden=12)
    src_state = torch.randn(2, 12)
    with torch.no_grad():
        hyps, scores = fast_translate_batch(decoder, src_state, beam_size=3, max_length=4, start_token=1)
        for b in range(2):
            for k in range(3):
                state, prev, total = src_state[b:b + 1], 1, 0.0
                for tok in hyps[b, k].tolist():
                    lp, state = decoder(torch.tensor([prev]), state)
                    total += lp[0, tok].item()
                    prev = tok
                assert abs(scores[b, k].item() - total) < 1e-4
    print("ok")
