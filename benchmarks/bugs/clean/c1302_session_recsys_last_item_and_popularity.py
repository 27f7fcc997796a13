"""Session-based recommender utilities (GRU4Rec / SR-GNN style).

- last clicked item hidden state per session via gather on the time axis
- item popularity via scatter_add_ over padded click sequences (padding masked out)
- top-k candidate rescoring with take_along_dim
- per-session mean item embedding via index_add_ over a flat click list
"""
import torch
import torch.nn as nn


class SessionEncoder(nn.Module):
    def __init__(self, num_items, emb_dim, hidden_size, padding_idx=0):
        super().__init__()
        self.item_emb = nn.Embedding(num_items, emb_dim, padding_idx=padding_idx)
        self.gru = nn.GRU(emb_dim, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, num_items)

    def forward(self, item_seq, item_seq_len):
        # item_seq: [B, L] (0 = padding), item_seq_len: [B]
        hidden, _ = self.gru(self.item_emb(item_seq))                       # [B, L, H]
        last_pos = (item_seq_len - 1).view(-1, 1, 1).expand(-1, 1, hidden.size(-1))
        return hidden.gather(dim=1, index=last_pos).squeeze(1)             # [B, H]


def item_popularity(item_seq, num_items, padding_idx=0):
    # item_seq: [B, L] -> counts: [num_items]
    flat = item_seq.reshape(-1)
    weights = (flat != padding_idx).float()
    counts = torch.zeros(num_items)
    counts.scatter_add_(0, flat, weights)
    return counts


def rescore_topk(logits, popularity, k, alpha=0.1):
    # logits: [B, N]; keep top-k candidates and add a popularity prior
    topk_scores, topk_items = logits.topk(k, dim=-1)                        # [B, k]
    prior = torch.take_along_dim(popularity.log1p().unsqueeze(0).expand_as(logits), topk_items, dim=-1)
    new_scores = topk_scores + alpha * prior
    order = new_scores.argsort(dim=-1, descending=True)
    return torch.take_along_dim(topk_items, order, dim=-1), torch.take_along_dim(new_scores, order, dim=-1)


def session_mean_embedding(item_emb, clicks, session_ids, num_sessions):
    # clicks, session_ids: [M] flat click log -> [num_sessions, D]
    vecs = item_emb.index_select(0, clicks)                                 # [M, D]
    sums = torch.zeros(num_sessions, item_emb.size(1)).index_add_(0, session_ids, vecs)
    cnt = torch.zeros(num_sessions).index_add_(0, session_ids, torch.ones_like(session_ids, dtype=torch.float))
    return sums / cnt.clamp(min=1).unsqueeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_items, B, L = 50, 4, 7
    model = SessionEncoder(num_items, emb_dim=16, hidden_size=24)
    lengths = torch.tensor([7, 3, 5, 1])
    item_seq = torch.randint(1, num_items, (B, L))
    for b in range(B):
        item_seq[b, lengths[b]:] = 0

    with torch.no_grad():
        last = model(item_seq, lengths)
        hidden, _ = model.gru(model.item_emb(item_seq))
        for b in range(B):
            assert torch.allclose(last[b], hidden[b, lengths[b] - 1])

        pop = item_popularity(item_seq, num_items)
        ref_pop = [0.0] * num_items
        for b in range(B):
            for t in range(L):
                if item_seq[b, t] != 0:
                    ref_pop[item_seq[b, t]] += 1
        assert pop.tolist() == ref_pop

        logits = model.out(last)
        items, scores = rescore_topk(logits, pop, k=5)
        for b in range(B):
            top = sorted(range(num_items), key=lambda i: -logits[b, i].item())[:5]
            rescored = sorted(((logits[b, i].item() + 0.1 * torch.log1p(pop[i]).item(), i) for i in top), reverse=True)
            assert items[b].tolist() == [i for _, i in rescored]
            assert torch.allclose(scores[b], torch.tensor([s for s, _ in rescored]), atol=1e-5)

        clicks = torch.tensor([3, 7, 7, 12, 3, 40, 1])
        sessions = torch.tensor([0, 0, 1, 1, 1, 2, 2])
        mean = session_mean_embedding(model.item_emb.weight, clicks, sessions, num_sessions=4)
        for s in range(4):
            rows = [model.item_emb.weight[c] for c, q in zip(clicks.tolist(), sessions.tolist()) if q == s]
            ref = torch.stack(rows).mean(0) if rows else torch.zeros(16)
            assert torch.allclose(mean[s], ref, atol=1e-6)
    print("ok")
