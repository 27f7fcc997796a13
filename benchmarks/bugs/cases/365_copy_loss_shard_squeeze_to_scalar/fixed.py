import torch
import torch.nn as nn


class CopyAwareNLL(nn.Module):
    """Negative log-likelihood for a pointer-generator over an extended vocabulary.

    Args:
        vocab_size (int): size of the fixed target vocabulary; source-vocabulary words
            occupy the ids ``vocab_size + i`` of the extended distribution.
        unk_id (int): id of the unknown word (also used when a target word is not in the source).
        pad_id (int): target padding id, ignored in the loss.
    """

    def __init__(self, vocab_size, unk_id=0, pad_id=1, eps=1e-20):
        super().__init__()
        self.vocab_size, self.unk_id, self.pad_id, self.eps = vocab_size, unk_id, pad_id, eps

    def forward(self, dist, src_pos, tgt):
        """
        Args:
            dist (FloatTensor): ``(n_tokens, vocab_size + src_len)`` probabilities over the extended vocab.
            src_pos (LongTensor): ``(n_tokens,)`` index of each target word in the example's source
                vocabulary, ``unk_id`` if the word does not occur in the source.
            tgt (LongTensor): ``(n_tokens,)`` target word ids in the fixed vocabulary.

        Returns:
            FloatTensor: ``(n_tokens,)`` per-token loss.
        """
        gen_p = dist.gather(1, tgt.unsqueeze(1)).squeeze(1)
        copy_p = dist.gather(1, (src_pos + self.vocab_size).unsqueeze(1)).squeeze(1)
        copy_p[src_pos == self.unk_id] = 0.0
        use_gen = (src_pos == self.unk_id) | (tgt != self.unk_id)
        p = torch.where(use_gen, gen_p + copy_p, copy_p) + self.eps
        loss = -p.log()
        return loss.masked_fill(tgt == self.pad_id, 0.0)


def sharded_loss(criterion, dist, src_pos, tgt, shard_size):
    """Sum the loss over shards of ``shard_size`` target tokens (memory-bounded backward)."""
    total = dist.new_zeros(())
    for d, s, t in zip(dist.split(shard_size), src_pos.split(shard_size), tgt.split(shard_size)):
        total = total + criterion(d, s, t).sum()
    return total


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, src_len, n_tokens = 12, 5, 7
    dist = torch.softmax(torch.randn(n_tokens, vocab + src_len), dim=-1)
    src_pos = torch.tensor([0, 3, 0, 1, 4, 0, 2])
    tgt = torch.tensor([5, 0, 7, 0, 9, 1, 3])
    loss = sharded_loss(CopyAwareNLL(vocab), dist, src_pos, tgt, shard_size=3)
    ref = 0.0
    for i in range(n_tokens):
        s, t = src_pos[i].item(), tgt[i].item()
        copy = 0.0 if s == 0 else dist[i, vocab + s].item()
        p = dist[i, t].item() + copy if (s == 0 or t != 0) else copy
        ref += 0.0 if t == 1 else -torch.tensor(p + 1e-20).log().item()
    assert abs(loss.item() - ref) < 1e-4
    print("ok", round(loss.item(), 4))
