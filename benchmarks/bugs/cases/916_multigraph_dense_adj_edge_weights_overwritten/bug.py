import torch


def collate_interactions(records, num_users):
    # records: list of (src_user, dst_user, weight); the same pair may appear many times
    src = torch.tensor([r[0] for r in records])          # [E]
    dst = torch.tensor([r[1] for r in records])          # [E]
    w = torch.tensor([r[2] for r in records])            # [E]
    return src, dst, w, num_users


def to_dense_weighted_adj(src, dst, w, num_nodes):
    adj = torch.zeros(num_nodes, num_nodes)              # [N, N]
    adj[src, dst] = w                                    # total interaction weight per pair
    return adj


def propagate(adj, feats):
    # adj: [N, N], feats: [N, D]
    deg = adj.sum(dim=1, keepdim=True).clamp(min=1e-6)   # [N, 1]
    return (adj @ feats) / deg


if __name__ == "__main__":
    records = [(0, 1, 1.0), (0, 1, 2.0), (1, 2, 0.5), (2, 0, 1.0), (2, 0, 1.0), (2, 0, 3.0), (3, 1, 1.0)]
    src, dst, w, n = collate_interactions(records, num_users=4)
    adj = to_dense_weighted_adj(src, dst, w, n)
    print("adj[0,1] =", adj[0, 1].item(), "(interactions sum to 3.0)")
    print("adj[2,0] =", adj[2, 0].item(), "(interactions sum to 5.0)")
    print(propagate(adj, torch.eye(4)))
