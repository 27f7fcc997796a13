"""Dense retrieval training step with in-batch hard negatives picked by score."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BiEncoder(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.proj = nn.Linear(dim, dim)

    def forward(self, token_ids, offsets):
        return F.normalize(self.proj(self.embed(token_ids, offsets)), dim=-1)


def mine_hard_negatives(query_emb, passage_emb, positive_idx, num_negatives):
    """Pick, for every query, the highest-scoring passages of the batch that are not its positive.

    Args:
        query_emb (Tensor of shape (batch_size, dim)) and passage_emb (Tensor of shape (num_passages, dim)).
        positive_idx (LongTensor of shape (batch_size,)): row of each query's positive passage.
        num_negatives (int): negatives kept per query.

    Returns:
        negative_idx (LongTensor of shape (batch_size, num_negatives)) and
        negative_emb (Tensor of shape (batch_size, num_negatives, dim)).
    """
    scores = query_emb @ passage_emb.t()  # (batch_size, num_passages)
    scores = scores.scatter(1, positive_idx.unsqueeze(1), float("-inf"))
    order = scores.argsort(dim=1, descending=True)
    negative_idx = order[:, :num_negatives]
    negative_scores = torch.take_along_dim(scores, negative_idx, dim=1)
    assert torch.isfinite(negative_scores).all()
    index = negative_idx.unsqueeze(-1).expand(-1, -1, passage_emb.shape[-1])
    negative_emb = torch.gather(passage_emb.unsqueeze(0).expand(query_emb.shape[0], -1, -1), 1, index)
    return negative_idx, negative_emb


def contrastive_loss(query_emb, positive_emb, negative_emb, temperature=0.05):
    """
    Args:
        query_emb, positive_emb (Tensor of shape (batch_size, dim)); negative_emb (Tensor of shape (batch_size, n, dim)).

    Returns:
        the InfoNCE loss (Tensor of shape ()), the positive sitting in column 0 of the logits.
    """
    pos = (query_emb * positive_emb).sum(-1, keepdim=True)  # (batch_size, 1)
    neg = torch.einsum("bd,bnd->bn", query_emb, negative_emb)  # (batch_size, n)
    logits = torch.cat([pos, neg], dim=1) / temperature
    return F.cross_entropy(logits, torch.zeros(query_emb.shape[0], dtype=torch.long))


def pack(batch):
    token_ids = torch.tensor([t for seq in batch for t in seq])
    offsets = torch.tensor([0] + [len(seq) for seq in batch[:-1]]).cumsum(0)
    return token_ids, offsets


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BiEncoder(vocab_size=50, dim=8)
    queries = [[3, 4, 5], [10, 11], [20, 21, 22, 23], [30, 31]]
    passages = [[3, 4, 9, 5], [10, 12, 11], [20, 22, 25], [30, 33, 31], [40, 41], [3, 10, 20]]
    positive_idx = torch.tensor([0, 1, 2, 3])
    q, p = model(*pack(queries)), model(*pack(passages))
    negative_idx, negative_emb = mine_hard_negatives(q, p, positive_idx, num_negatives=2)
    loss = contrastive_loss(q, p[positive_idx], negative_emb)
    loss.backward()

    with torch.no_grad():
        expected_loss = 0.0
        for i in range(4):
            scored = sorted(((q[i] @ p[j]).item(), j) for j in range(6) if j != positive_idx[i].item())
            hard = [j for _, j in sorted(scored, key=lambda s: -s[0])[:2]]
            assert negative_idx[i].tolist() == hard
            assert all(torch.equal(negative_emb[i, n], p[j]) for n, j in enumerate(hard))
            logits = [(q[i] @ p[positive_idx[i]]).item() / 0.05] + [(q[i] @ p[j]).item() / 0.05 for j in hard]
            m = max(logits)
            expected_loss += -(logits[0] - m - torch.tensor([l - m for l in logits]).exp().sum().log().item())
        assert abs(loss.item() - expected_loss / 4) < 1e-4
    print("ok")
