"""Sequential recommender utilities (SASRec-style): last-position pooling, sampled softmax with
log-Q correction, and full-catalogue top-k retrieval that never recommends already seen items.

Item ids are 1-based; id 0 is the padding item and sequences are right-padded.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def gather_last_position(seq_output, seq_lengths):
    """Hidden state of the last real item of every sequence.

    Args:
        seq_output (FloatTensor): shape (B, L, D), encoder output for right-padded sequences.
        seq_lengths (LongTensor): shape (B,), number of real items (>= 1).

    Returns:
        FloatTensor: shape (B, D).
    """
    index = (seq_lengths - 1).view(-1, 1, 1).expand(-1, 1, seq_output.size(-1))
    return seq_output.gather(dim=1, index=index).squeeze(1)


class SampledSoftmaxLoss(nn.Module):
    """Sampled softmax over the item catalogue with log-Q correction and accidental-hit removal.

    Args:
        item_embedding (nn.Embedding): (n_items + 1, D) table, row 0 is padding.
        sampling_log_probs (FloatTensor): shape (n_items + 1,), log q(i) of the negative sampler.
    """

    def __init__(self, item_embedding, sampling_log_probs):
        super().__init__()
        self.item_embedding = item_embedding
        self.register_buffer("log_q", sampling_log_probs)

    def forward(self, user_repr, pos_items, neg_items):
        """
        Args:
            user_repr (FloatTensor): shape (B, D).
            pos_items (LongTensor): shape (B,), target item ids.
            neg_items (LongTensor): shape (N,), negatives shared by the whole batch.

        Returns:
            FloatTensor: scalar loss.
        """
        pos_emb = self.item_embedding(pos_items)                           # (B, D)
        neg_emb = self.item_embedding.weight.index_select(0, neg_items)    # (N, D)
        pos_logit = (user_repr * pos_emb).sum(-1, keepdim=True)            # (B, 1)
        neg_logit = user_repr @ neg_emb.t()                                # (B, N)
        pos_logit = pos_logit - self.log_q.index_select(0, pos_items).unsqueeze(1)
        neg_logit = neg_logit - self.log_q.index_select(0, neg_items).unsqueeze(0)
        accidental = neg_items.unsqueeze(0) == pos_items.unsqueeze(1)      # (B, N)
        neg_logit = neg_logit.masked_fill(accidental, float("-inf"))
        logits = torch.cat([pos_logit, neg_logit], dim=1)                  # (B, 1 + N)
        target = torch.zeros(logits.size(0), dtype=torch.long, device=logits.device)
        return F.cross_entropy(logits, target)


@torch.no_grad()
def recommend_topk(user_repr, item_embedding, history, k):
    """Top-k unseen items for each user.

    Args:
        user_repr (FloatTensor): shape (B, D).
        item_embedding (nn.Embedding): (n_items + 1, D).
        history (LongTensor): shape (B, L), right-padded with 0.
        k (int): number of items to return.

    Returns:
        LongTensor: shape (B, k), 1-based item ids.
    """
    scores = user_repr @ item_embedding.weight.t()                         # (B, n_items + 1)
    scores.scatter_(1, history, float("-inf"))                              # seen items (and pad col 0)
    scores[:, 0] = float("-inf")
    return scores.topk(k, dim=1).indices


if __name__ == "__main__":
    torch.manual_seed(0)
    n_items, dim, batch, max_len = 40, 8, 3, 6
    items = nn.Embedding(n_items + 1, dim, padding_idx=0)
    encoder = nn.GRU(dim, dim, batch_first=True)

    lengths = torch.tensor([6, 3, 4])
    history = torch.zeros(batch, max_len, dtype=torch.long)
    for b in range(batch):
        history[b, : lengths[b]] = torch.randint(1, n_items + 1, (int(lengths[b]),))
    seq_out, _ = encoder(items(history))
    user = gather_last_position(seq_out, lengths)
    for b in range(batch):
        assert torch.allclose(user[b], seq_out[b, lengths[b] - 1])

    popularity = torch.rand(n_items + 1)
    popularity[0] = 0.0
    log_q = torch.log(popularity / popularity.sum() + 1e-12)
    criterion = SampledSoftmaxLoss(items, log_q)
    pos = torch.randint(1, n_items + 1, (batch,))
    neg = torch.multinomial(popularity, 10, replacement=True)
    neg[0] = pos[1]  # force one accidental hit
    loss = criterion(user, pos, neg)

    u, w = user.detach(), items.weight.detach()
    ref = 0.0
    for b in range(batch):
        terms = [float(u[b] @ w[pos[b]] - log_q[pos[b]])]
        for n in neg.tolist():
            if n != int(pos[b]):
                terms.append(float(u[b] @ w[n] - log_q[n]))
        ref += -(terms[0] - float(torch.logsumexp(torch.tensor(terms), 0)))
    assert abs(loss.item() - ref / batch) < 1e-4
    loss.backward()

    top = recommend_topk(user.detach(), items, history, k=5)
    for b in range(batch):
        seen = set(history[b, : lengths[b]].tolist())
        s = (user[b].detach() @ items.weight.detach().t()).tolist()
        ranked = [i for i in sorted(range(1, n_items + 1), key=lambda i: -s[i]) if i not in seen][:5]
        assert top[b].tolist() == ranked
    print("ok")
