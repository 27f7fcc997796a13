import torch
import torch.nn as nn

UNK, PAD = 0, 1


class AttnScorer(nn.Module):
    """Dot-product attention of decoder states over the (padded) source memory bank."""

    def __init__(self, vocab, dim):
        super().__init__()
        self.src_emb = nn.Embedding(vocab, dim)
        self.tgt_emb = nn.Embedding(vocab, dim)

    def forward(self, src, tgt):
        # src: (batch, src_len) padded with PAD, tgt: (batch, tgt_len)
        memory = self.src_emb(src)  # (batch, src_len, dim)
        query = self.tgt_emb(tgt)  # (batch, tgt_len, dim)
        return torch.softmax(query @ memory.transpose(1, 2), dim=-1)  # (batch, tgt_len, src_len)


def replace_unk(pred, attn, src_raw):
    """Replace every predicted <unk> by the source token it attends to most.

    pred: (batch, tgt_len) predicted ids; attn: (batch, tgt_len, src_len) over the padded
    source; src_raw: list of 1-D id tensors, one per example, without padding.
    """
    out = pred.clone()
    for b in range(pred.size(0)):
        unk_pos = (pred[b] == UNK).nonzero(as_tuple=True)[0]  # (n_unk,)
        if unk_pos.numel() == 0:
            continue
        # only real source tokens are candidates: the attention row also covers the padding
        src_pos = attn[b, unk_pos, : src_raw[b].numel()].argmax(-1)  # (n_unk,)
        out[b, unk_pos] = src_raw[b].index_select(0, src_pos)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    src_raw = [torch.tensor([12, 7, 25, 9, 31, 4]), torch.tensor([18, 22, 6])]
    src = torch.full((2, 6), PAD)
    for b, ids in enumerate(src_raw):
        src[b, : len(ids)] = ids
    pred = torch.tensor([[5, 0, 14, 2], [0, 11, 0, 2]])
    scorer = AttnScorer(40, 8)
    with torch.no_grad():
        attn = scorer(src, pred)
    out = replace_unk(pred, attn, src_raw)
    ref = pred.tolist()
    for b in range(2):
        n = len(src_raw[b])
        for t in range(pred.size(1)):
            if ref[b][t] == UNK:
                row = attn[b, t, :n].tolist()
                ref[b][t] = src_raw[b][row.index(max(row))].item()
    assert out.tolist() == ref
    print("ok")
