import torch
import torch.nn as nn
import torch.nn.functional as F


class NextItemPredictionHead(nn.Module):
    def __init__(self, hidden, n_items):
        super().__init__()
        self.proj = nn.Linear(hidden, n_items)

    def forward(self, session_repr):
        return self.proj(session_repr)


def labels_to_onehot(labels, n_items):
    return F.one_hot(labels.reshape(-1), n_items).float()


def recall_at_k(scores, labels, k=5):
    target = labels_to_onehot(labels, scores.size(-1))
    topk = scores.topk(k, dim=-1).indices
    hits = torch.gather(target, 1, topk).sum(-1)
    return hits.mean()


def load_batch(batch_size, n_items, hidden):
    # the columnar loader hands item ids over as int32
    session_repr = torch.randn(batch_size, hidden)
    next_item = torch.randint(1, n_items, (batch_size,), dtype=torch.int32)
    return session_repr, next_item


if __name__ == "__main__":
    torch.manual_seed(0)
    head = NextItemPredictionHead(hidden=32, n_items=50)
    session_repr, next_item = load_batch(8, 50, 32)
    scores = head(session_repr)
    print("recall@5:", recall_at_k(scores, next_item).item())
