import torch
import torch.nn as nn


class TinySeq2Seq(nn.Module):
    def __init__(self, n_vocab, d_model):
        super().__init__()
        self.src_emb = nn.Embedding(n_vocab, d_model)
        self.tgt_emb = nn.Embedding(n_vocab, d_model)
        self.enc = nn.Linear(d_model, d_model)
        self.out = nn.Linear(2 * d_model, n_vocab)

    def encode(self, src_seq):
        return torch.tanh(self.enc(self.src_emb(src_seq)))  # size: b x ls x d

    def decode_step(self, last_tok, enc_output, src_mask):
        q = self.tgt_emb(last_tok)  # size: n x d
        attn = torch.einsum("nd,nld->nl", q, enc_output).masked_fill(~src_mask, -1e9).softmax(-1)
        ctx = torch.einsum("nl,nld->nd", attn, enc_output)  # size: n x d
        return self.out(torch.cat([q, ctx], -1)).log_softmax(-1)  # size: n x V


def repeat_for_beam(tensor, beam_size):
    batch_size = tensor.size(0)
    expand_idx = torch.arange(batch_size).repeat_interleave(beam_size)  # size: (b*bm)
    return tensor.index_select(0, expand_idx)


@torch.no_grad()
def translate_batch(model, src_seq, src_mask, beam_size, max_len, bos):
    batch_size = src_seq.size(0)
    enc_output = repeat_for_beam(model.encode(src_seq), beam_size)  # size: (b*bm) x ls x d
    src_mask = repeat_for_beam(src_mask, beam_size)  # size: (b*bm) x ls
    seqs = torch.full((batch_size * beam_size, 1), bos)  # size: (b*bm) x 1
    scores = torch.zeros(batch_size, beam_size)
    scores[:, 1:] = -1e9  # only the first beam is alive at step 0
    for _ in range(max_len):
        word_lk = model.decode_step(seqs[:, -1], enc_output, src_mask)  # size: (b*bm) x V
        n_vocab = word_lk.size(-1)
        cand = (scores.view(-1, 1) + word_lk).view(batch_size, -1)  # size: b x (bm*V)
        scores, flat = cand.topk(beam_size, dim=-1)  # size: b x bm
        prev_beam = flat // n_vocab + torch.arange(batch_size)[:, None] * beam_size
        seqs = torch.cat([seqs[prev_beam.view(-1)], (flat % n_vocab).view(-1, 1)], dim=1)
    return seqs.view(batch_size, beam_size, -1)[:, 0, 1:]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinySeq2Seq(n_vocab=30, d_model=16)
    src_seq = torch.tensor([[5, 9, 12, 3, 0, 0], [7, 7, 21, 4, 18, 2], [11, 3, 0, 0, 0, 0]])
    src_mask = src_seq.ne(0)
    batched = translate_batch(model, src_seq, src_mask, beam_size=3, max_len=5, bos=1)
    for i in range(src_seq.size(0)):
        alone = translate_batch(model, src_seq[i:i + 1], src_mask[i:i + 1], beam_size=3, max_len=5, bos=1)
        assert batched[i].tolist() == alone[0].tolist(), (i, batched[i].tolist(), alone[0].tolist())
    expanded = repeat_for_beam(src_seq, 3)
    for i in range(src_seq.size(0)):
        for k in range(3):
            assert torch.equal(expanded[i * 3 + k], src_seq[i])
    print("ok")
