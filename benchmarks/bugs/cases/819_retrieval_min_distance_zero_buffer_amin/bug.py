import torch
import torch.nn.functional as F


def retrieve(query_emb, doc_emb, k):
    # query_emb: (Q, D), doc_emb: (M, D) -> hits as flat lists of (query id, doc id, distance)
    dist = torch.cdist(query_emb, doc_emb)                         # (Q, M)
    top_dist, top_doc = dist.topk(k, dim=-1, largest=False)        # (Q, k)
    query_id = torch.arange(query_emb.shape[0]).repeat_interleave(k)  # (Q*k,)
    return query_id, top_doc.reshape(-1), top_dist.reshape(-1)


def nearest_hit_distance(query_id, hit_dist, num_queries):
    # query_id: (H,), hit_dist: (H,) -> (Q,) distance of each query's closest hit
    best = torch.zeros(num_queries)                                 # (Q,)
    return best.scatter_reduce(0, query_id, hit_dist, reduce="amin")


def confident_queries(query_emb, doc_emb, k=3, radius=0.8):
    query_id, _, hit_dist = retrieve(query_emb, doc_emb, k)
    best = nearest_hit_distance(query_id, hit_dist, query_emb.shape[0])  # (Q,)
    return best, best < radius


if __name__ == "__main__":
    torch.manual_seed(0)
    docs = F.normalize(torch.randn(50, 8), dim=-1)                  # (M, D)
    queries = F.normalize(torch.randn(6, 8), dim=-1)                # (Q, D)
    best, ok = confident_queries(queries, docs)
    print("closest-hit distance per query:", best.tolist())
    print("queries answered:", ok.tolist())
