import hashlib

import torch
import torch.nn.functional as F


class HashingEncoder:
    def __init__(self, dim=24):
        self.dim = dim

    def encode(self, texts):
        vectors = []
        for text in texts:
            vec = torch.zeros(self.dim)
            for word in text.lower().split():
                digest = hashlib.md5(word.encode()).digest()
                vec[digest[0] % self.dim] += 1.0
                vec[digest[1] % self.dim] -= 0.5
            vectors.append(vec)
        return F.normalize(torch.stack(vectors), dim=-1)

    def similarity(self, a, b):
        return a @ b.T


def mine_hard_negatives(queries, positives, model, range_min=0, range_max=None, max_score=None,
                        relative_margin=None, num_negatives=3, batch_size=32):
    corpus = list(dict.fromkeys(positives))
    positive_indices = [[corpus.index(p)] for p in positives]
    max_positives = max(len(p) for p in positive_indices)

    if range_max is None:
        if relative_margin is not None or max_score is not None:
            # some candidates are filtered out later, so ask for more of them
            range_max = range_min + (num_negatives * 10) + max_positives
        else:
            range_max = range_min + num_negatives + max_positives

    query_embeddings = model.encode(queries)
    corpus_embeddings = model.encode(corpus)

    scores_list, indices_list = [], []
    for start in range(0, len(query_embeddings), batch_size):
        chunk_scores = model.similarity(query_embeddings[start : start + batch_size], corpus_embeddings)
        chunk_scores, chunk_indices = torch.topk(chunk_scores, k=range_max + max_positives, dim=1)
        scores_list.append(chunk_scores)
        indices_list.append(chunk_indices)
    scores = torch.cat(scores_list)
    indices = torch.cat(indices_list)

    triplets = []
    for q, (query, positive) in enumerate(zip(queries, positives)):
        positive_score = model.similarity(query_embeddings[q : q + 1], corpus_embeddings[positive_indices[q]]).max()
        candidates = [(s, i) for s, i in zip(scores[q].tolist(), indices[q].tolist()) if i not in positive_indices[q]]
        candidates = candidates[range_min:]
        if max_score is not None:
            candidates = [(s, i) for s, i in candidates if s <= max_score]
        if relative_margin is not None:
            candidates = [(s, i) for s, i in candidates if s <= positive_score * (1 - relative_margin)]
        for _, idx in candidates[:num_negatives]:
            triplets.append((query, positive, corpus[idx]))
    return triplets


if __name__ == "__main__":
    model = HashingEncoder()
    pairs = [
        ("how do rockets reach orbit", "rockets burn fuel to reach orbital velocity"),
        ("what do pandas eat", "giant pandas eat bamboo almost exclusively"),
        ("why is the sky blue", "rayleigh scattering makes the sky look blue"),
        ("how do vaccines work", "vaccines train the immune system with antigens"),
        ("what causes tides", "the moon's gravity pulls the oceans and causes tides"),
        ("who invented the telephone", "bell patented the telephone in 1876"),
    ]
    queries, positives = zip(*pairs)
    triplets = mine_hard_negatives(list(queries), list(positives), model, num_negatives=2, relative_margin=0.05)
    for anchor, pos, neg in triplets:
        print(f"{anchor!r:32} -> {neg!r}")
