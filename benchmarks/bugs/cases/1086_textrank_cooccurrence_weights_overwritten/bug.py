import torch


def cooccurrence_pairs(token_ids, window=2):
    """Collect lemma pairs that co-occur inside a sliding window.

    Args:
        token_ids (list[int]): lemma id of every kept token, in document order.
        window (int): number of following tokens each token is linked to.

    Returns:
        tuple(torch.LongTensor, torch.LongTensor, torch.FloatTensor): source ids `(E,)`,
        target ids `(E,)` and one weight per co-occurrence `(E,)`.
    """
    src, dst = [], []
    for i, a in enumerate(token_ids):
        for b in token_ids[i + 1 : i + 1 + window]:
            if a != b:
                src.append(a)
                dst.append(b)
    return torch.tensor(src), torch.tensor(dst), torch.ones(len(src))


def build_graph(num_lemmas, src, dst, weight):
    """Undirected weighted lemma graph.

    Args:
        num_lemmas (int): number of graph nodes `V`.
        src, dst (torch.LongTensor): edge end points, shape `(E,)`.
        weight (torch.FloatTensor): edge weights, shape `(E,)`.

    Returns:
        torch.FloatTensor: adjacency matrix of shape `(V, V)`.
    """
    adj = torch.zeros(num_lemmas, num_lemmas)
    adj.index_put_((src, dst), weight)
    adj.index_put_((dst, src), weight)
    return adj


def textrank(adj, damping=0.85, iters=50):
    """Power iteration over the column-normalised adjacency `(V, V)`; returns scores `(V,)`."""
    out_w = adj.sum(0).clamp(min=1e-12)
    trans = adj / out_w
    score = torch.full((adj.size(0),), 1.0 / adj.size(0))
    for _ in range(iters):
        score = (1 - damping) / adj.size(0) + damping * trans @ score
    return score


if __name__ == "__main__":
    lemmas = ["play", "with", "children", "garden", "toy"]
    doc = [0, 1, 2, 0, 1, 3, 2, 0, 1, 4, 1, 0]
    src, dst, w = cooccurrence_pairs(doc)
    adj = build_graph(len(lemmas), src, dst, w)
    print("co-occurrences play-with:", int(((src == 0) & (dst == 1)).sum() + ((src == 1) & (dst == 0)).sum()))
    print("edge weight play-with:", adj[0, 1].item())
    scores = textrank(adj)
    print({l: round(s, 4) for l, s in zip(lemmas, scores.tolist())})
