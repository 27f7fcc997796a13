import torch


def unique_with_first_index(ids):
    uniq, inverse = torch.unique(ids, sorted=True, return_inverse=True)
    positions = torch.arange(ids.numel(), device=ids.device)
    first = torch.full((uniq.numel(),), ids.numel(), dtype=torch.long, device=ids.device)
    first.scatter_reduce_(0, inverse, positions, reduce="amin", include_self=False)
    return uniq, first


def dedup_hits(doc_ids, scores, passages):
    uniq, first = unique_with_first_index(doc_ids)
    order = torch.argsort(first)
    keep = first[order]
    return doc_ids.index_select(0, keep), scores.index_select(0, keep), passages.index_select(0, keep)


def retrieve(query_vec, index_vecs, index_doc, k):
    sims = index_vecs @ query_vec
    top = sims.topk(k)
    return index_doc[top.indices], top.values, index_vecs[top.indices]


if __name__ == "__main__":
    torch.manual_seed(0)
    chunk_vecs = torch.randn(40, 16)
    chunk_doc = torch.arange(40) // 4
    query = chunk_vecs[5] + 0.1 * torch.randn(16)
    docs, scores, vecs = retrieve(query, chunk_vecs, chunk_doc, k=10)
    d, s, v = dedup_hits(docs, scores, vecs)
    seen, ref = set(), []
    for r in range(docs.numel()):
        if int(docs[r]) not in seen:
            seen.add(int(docs[r]))
            ref.append(r)
    assert d.tolist() == [int(docs[r]) for r in ref]
    assert s.tolist() == [float(scores[r]) for r in ref]
    for j, r in enumerate(ref):
        assert torch.equal(v[j], vecs[r])
    print("ok")
