import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.GRUCell(emb_dim, hidden_dim)
        self.out = nn.Linear(hidden_dim, vocab_size)

    def forward(self, y, h):
        h = self.rnn(self.embedding(y), h)
        return self.out(h).log_softmax(-1), h


def beam_search(decoder, h0, bos_id, beam_size, max_len):
    vocab_size = decoder.out.out_features
    h = h0.expand(beam_size, -1).contiguous()
    words = torch.full((beam_size,), bos_id, dtype=torch.long)
    scores = torch.zeros(beam_size)
    scores[1:] = -float("inf")
    seqs = words.unsqueeze(1)
    for _ in range(max_len):
        logp, h = decoder(words, h)
        flat = (scores.unsqueeze(1) + logp).view(-1)
        scores, best_ids = flat.topk(beam_size)
        prev_beam = best_ids / vocab_size
        words = best_ids % vocab_size
        seqs = torch.cat([seqs.index_select(0, prev_beam), words.unsqueeze(1)], dim=1)
        h = h.index_select(0, prev_beam)
    return seqs, scores


def reference_beam(decoder, h0, bos_id, beam_size, max_len):
    beams = [([bos_id], 0.0, h0[0])] + [([bos_id], -float("inf"), h0[0])] * (beam_size - 1)
    for _ in range(max_len):
        cand = []
        for seq, sc, h in beams:
            logp, h2 = decoder(torch.tensor([seq[-1]]), h.unsqueeze(0))
            for w in range(logp.size(1)):
                cand.append((seq + [w], sc + logp[0, w].item(), h2[0]))
        cand.sort(key=lambda c: -c[1])
        beams = cand[:beam_size]
    return [b[0] for b in beams]


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = Decoder(vocab_size=30, emb_dim=16, hidden_dim=24)
    h0 = torch.randn(1, 24)
    with torch.no_grad():
        seqs, scores = beam_search(decoder, h0, bos_id=1, beam_size=4, max_len=5)
        ref = reference_beam(decoder, h0, bos_id=1, beam_size=4, max_len=5)
    assert seqs.tolist() == ref
    print("ok")
