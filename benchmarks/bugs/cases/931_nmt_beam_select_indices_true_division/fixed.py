import torch
import torch.nn.functional as F


class ToyDecoder(torch.nn.Module):
    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab_size, hidden)
        self.out = torch.nn.Linear(hidden, vocab_size)

    def forward(self, prev_tokens):
        # prev_tokens: [batch*beam] -> log-probs [batch*beam, vocab]
        return F.log_softmax(self.out(torch.tanh(self.embed(prev_tokens))), dim=-1)


def beam_step(decoder, alive_seq, topk_log_probs, batch_size, beam_size):
    # alive_seq:      [batch*beam, t]
    # topk_log_probs: [batch, beam]
    log_probs = decoder(alive_seq[:, -1])                  # [batch*beam, vocab]
    vocab_size = log_probs.size(-1)
    log_probs = log_probs + topk_log_probs.view(-1).unsqueeze(1)
    curr_scores = log_probs.reshape(-1, beam_size * vocab_size)   # [batch, beam*vocab]
    topk_scores, topk_ids = curr_scores.topk(beam_size, dim=-1)   # [batch, beam]

    # which hypothesis each winner extends, and which word it appends
    topk_beam_index = topk_ids.div(vocab_size, rounding_mode="floor")
    topk_ids = topk_ids.fmod(vocab_size)

    beam_offset = torch.arange(0, batch_size * beam_size, step=beam_size)
    batch_index = topk_beam_index + beam_offset.unsqueeze(1)      # [batch, beam]
    select_indices = batch_index.view(-1)                         # [batch*beam]

    alive_seq = torch.cat([alive_seq.index_select(0, select_indices),
                           topk_ids.view(-1, 1)], dim=-1)
    return alive_seq, topk_scores


def reference_step(decoder, seqs, scores, batch_size, beam_size):
    """Plain loops: expand every live hypothesis by every word, keep the best beam_size per sentence."""
    new_seqs, new_scores = [], []
    for b in range(batch_size):
        cands = []
        for k in range(beam_size):
            row = b * beam_size + k
            lp = decoder(torch.tensor([seqs[row][-1]]))[0].tolist()
            for w, v in enumerate(lp):
                cands.append((scores[b][k] + v, k, w))
        cands.sort(key=lambda c: -c[0])
        keep = cands[:beam_size]
        new_scores.append([c[0] for c in keep])
        for _, k, w in keep:
            new_seqs.append(seqs[b * beam_size + k] + [w])
    return new_seqs, new_scores


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, beam_size, vocab_size, bos = 2, 3, 11, 1
    decoder = ToyDecoder(vocab_size, 16)
    alive_seq = torch.full((batch_size * beam_size, 1), bos, dtype=torch.long)
    # only the first beam is live at t=0
    topk_log_probs = torch.tensor([[0.0] + [float("-inf")] * (beam_size - 1)]).repeat(batch_size, 1)
    ref_seqs = alive_seq.tolist()
    ref_scores = topk_log_probs.tolist()
    with torch.no_grad():
        for _ in range(3):
            alive_seq, topk_log_probs = beam_step(decoder, alive_seq, topk_log_probs, batch_size, beam_size)
            ref_seqs, ref_scores = reference_step(decoder, ref_seqs, ref_scores, batch_size, beam_size)
    assert alive_seq.tolist() == ref_seqs, (alive_seq.tolist(), ref_seqs)
    assert torch.allclose(topk_log_probs, torch.tensor(ref_scores), atol=1e-5)
    print("ok")
