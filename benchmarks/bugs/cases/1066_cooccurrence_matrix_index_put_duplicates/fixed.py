import torch


def build_vocab(corpus):
    words = sorted({w for doc in corpus for w in doc})
    return {w: i for i, w in enumerate(words)}


def window_pairs(doc_ids, window):
    centers, contexts = [], []
    for i in range(len(doc_ids)):
        for j in range(max(0, i - window), min(len(doc_ids), i + window + 1)):
            if j != i:
                centers.append(doc_ids[i])
                contexts.append(doc_ids[j])
    return torch.tensor(centers), torch.tensor(contexts)


def compute_co_occurrence_matrix(corpus, window_size=4):
    word2ind = build_vocab(corpus)
    M = torch.zeros(len(word2ind), len(word2ind))
    for doc in corpus:
        ids = [word2ind[w] for w in doc]
        c, o = window_pairs(ids, window_size)
        M.index_put_((c, o), torch.ones(c.numel()), accumulate=True)
    return M, word2ind


if __name__ == "__main__":
    corpus = [
        "<START> all that glitters is not gold <END>".split(),
        "<START> all is well that ends well <END>".split(),
    ]
    M, word2ind = compute_co_occurrence_matrix(corpus, window_size=4)
    ref = torch.zeros_like(M)
    for doc in corpus:
        for i, wc in enumerate(doc):
            for j in range(max(0, i - 4), min(len(doc), i + 5)):
                if j != i:
                    ref[word2ind[wc], word2ind[doc[j]]] += 1
    assert torch.equal(M, ref)
    print("ok")
