import torch
import torch.nn as nn
import torch.nn.functional as F


class GRUDecoder(nn.Module):
    def __init__(self, vocab_size, emb_size, hidden_size, enc_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_size)
        self.cell = nn.GRUCell(emb_size + enc_size, hidden_size)
        self.out = nn.Linear(hidden_size, vocab_size)

    def step(self, prev_tokens, hidden, context):
        # prev_tokens: [N]  hidden: [N, H]  context: [N, E]
        x = torch.cat([self.embed(prev_tokens), context], dim=-1)  # [N, emb + E]
        hidden = self.cell(x, hidden)  # [N, H]
        return F.log_softmax(self.out(hidden), dim=-1), hidden  # [N, V], [N, H]


@torch.no_grad()
def beam_search(decoder, context, hidden, beam_size, bos_index, eos_index, max_output_length):
    # context: [B, E] pooled encoder states, hidden: [B, H] initial decoder state
    batch_size = context.size(0)
    vocab_size = decoder.out.out_features
    # tile every sentence beam_size times: [B * K, ...]
    context = context.repeat_interleave(beam_size, dim=0)  # [B*K, E]
    hidden = hidden.repeat_interleave(beam_size, dim=0)  # [B*K, H]
    beam_offset = torch.arange(0, batch_size * beam_size, step=beam_size)  # [B]
    alive_seq = torch.full((batch_size * beam_size, 1), bos_index, dtype=torch.long)  # [B*K, 1]
    topk_log_probs = torch.zeros(batch_size, beam_size)  # [B, K]
    topk_log_probs[:, 1:] = float("-inf")  # only the first beam is alive at step 0
    hypotheses = [[] for _ in range(batch_size)]

    for step in range(max_output_length):
        log_probs, hidden = decoder.step(alive_seq[:, -1], hidden, context)  # [B*K, V]
        log_probs = log_probs + topk_log_probs.view(-1, 1)  # [B*K, V]
        log_probs = log_probs.view(batch_size, beam_size * vocab_size)  # [B, K*V]
        topk_log_probs, topk_ids = log_probs.topk(beam_size, dim=-1)  # [B, K]
        topk_beam_index = topk_ids.div(vocab_size, rounding_mode="floor")  # [B, K]
        topk_ids = topk_ids.fmod(vocab_size)  # [B, K]
        batch_index = topk_beam_index + beam_offset.unsqueeze(1)  # [B, K]
        select_indices = batch_index.view(-1)  # [B*K]

        alive_seq = torch.cat([alive_seq.index_select(0, select_indices), topk_ids.view(-1, 1)], -1)

        is_finished = topk_ids.eq(eos_index)  # [B, K]
        if step + 1 == max_output_length:
            is_finished.fill_(True)
        if is_finished.any():
            for b in range(batch_size):
                for k in is_finished[b].nonzero().view(-1).tolist():
                    if topk_log_probs[b, k] > float("-inf"):
                        hyp = alive_seq[b * beam_size + k, 1:]
                        hypotheses[b].append((topk_log_probs[b, k].item(), hyp.tolist()))
            # finished hypotheses drop out of the beam
            topk_log_probs = topk_log_probs.masked_fill(is_finished, float("-inf"))

            # reorder decoder states to follow the surviving beams
            context = context.index_select(0, select_indices)
            hidden = hidden.index_select(0, select_indices)

    return [max(hyps, key=lambda h: h[0]) for hyps in hypotheses]


def reference_beam_search(decoder, context, hidden, beam_size, bos_index, eos_index, max_output_length):
    """One sentence at a time, every hypothesis carries its own decoder state."""
    results = []
    for b in range(context.size(0)):
        beam = [(0.0, [bos_index], hidden[b : b + 1])]
        finished = []
        for step in range(max_output_length):
            candidates = []
            for score, tokens, h in beam:
                lp, h_new = decoder.step(torch.tensor([tokens[-1]]), h, context[b : b + 1])
                for v in range(lp.size(-1)):
                    candidates.append((score + lp[0, v].item(), tokens + [v], h_new))
            candidates.sort(key=lambda c: -c[0])
            beam = []
            for score, tokens, h in candidates[:beam_size]:
                if tokens[-1] == eos_index or step + 1 == max_output_length:
                    finished.append((score, tokens[1:]))
                else:
                    beam.append((score, tokens, h))
            if not beam:
                break
        results.append(max(finished, key=lambda f: f[0]))
    return results


if __name__ == "__main__":
    torch.manual_seed(1)
    decoder = GRUDecoder(vocab_size=30, emb_size=8, hidden_size=16, enc_size=10)
    context = torch.randn(3, 10)
    hidden = torch.tanh(torch.randn(3, 16))
    out = beam_search(decoder, context, hidden, beam_size=3, bos_index=0, eos_index=1, max_output_length=6)
    with torch.no_grad():
        ref = reference_beam_search(decoder, context, hidden, 3, 0, 1, 6)
    for b, ((s, hyp), (rs, rhyp)) in enumerate(zip(out, ref)):
        print(f"sentence {b}: beam {hyp} ({s:.3f})   per-hypothesis search {rhyp} ({rs:.3f})")
