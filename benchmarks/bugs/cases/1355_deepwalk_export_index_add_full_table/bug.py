import torch
import torch.nn as nn
import torch.nn.functional as F


class SkipGramModel(nn.Module):
    def __init__(self, emb_size, emb_dimension):
        super().__init__()
        self.emb_size = emb_size
        self.emb_dimension = emb_dimension
        self.u_embeddings = nn.Embedding(emb_size, emb_dimension)
        self.v_embeddings = nn.Embedding(emb_size, emb_dimension)
        bound = 0.5 / emb_dimension
        nn.init.uniform_(self.u_embeddings.weight, -bound, bound)
        nn.init.zeros_(self.v_embeddings.weight)

    def forward(self, pos_u, pos_v, neg_v):
        # pos_u, pos_v: [B]; neg_v: [B, K]
        emb_u = self.u_embeddings(pos_u)                      # [B, D]
        emb_v = self.v_embeddings(pos_v)                      # [B, D]
        emb_neg = self.v_embeddings(neg_v)                    # [B, K, D]
        pos_score = F.logsigmoid((emb_u * emb_v).sum(-1))     # [B]
        neg_score = F.logsigmoid(-torch.bmm(emb_neg, emb_u.unsqueeze(2)).squeeze(2)).sum(-1)
        return -(pos_score + neg_score).mean()

    def export_embedding(self, valid_seeds, norm=True):
        # weight: [num_nodes, D]; valid_seeds: [num_valid] ids of nodes that were walked from
        weight = self.u_embeddings.weight.detach().cpu()
        embedding = torch.zeros_like(weight)                  # isolated nodes keep a zero row
        valid_embedding = weight.index_select(0, valid_seeds)  # [num_valid, D]
        embedding.index_add_(0, valid_seeds, weight)
        if norm:
            embedding = embedding / torch.sqrt((embedding * embedding).sum(1) + 1e-6).unsqueeze(1)
        return embedding


def find_connected_nodes(src, dst, num_nodes):
    deg = torch.zeros(num_nodes, dtype=torch.long)
    deg.index_add_(0, src, torch.ones_like(src))
    deg.index_add_(0, dst, torch.ones_like(dst))
    return deg.nonzero().squeeze(1)


def random_walk_pairs(src, dst, seeds, walk_length, generator):
    nbrs = {}
    for s, d in zip(src.tolist(), dst.tolist()):
        nbrs.setdefault(s, []).append(d)
        nbrs.setdefault(d, []).append(s)
    pairs = []
    for seed in seeds.tolist():
        cur = seed
        for _ in range(walk_length):
            choices = nbrs[cur]
            nxt = choices[torch.randint(len(choices), (1,), generator=generator).item()]
            pairs.append((cur, nxt))
            cur = nxt
    return torch.tensor(pairs)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    num_nodes = 10
    src = torch.tensor([0, 0, 1, 2, 4, 4, 7])
    dst = torch.tensor([1, 2, 2, 4, 7, 8, 8])   # nodes 3, 5, 6, 9 have no edge
    valid_seeds = find_connected_nodes(src, dst, num_nodes)

    model = SkipGramModel(num_nodes, 8)
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    pairs = random_walk_pairs(src, dst, valid_seeds, walk_length=4, generator=g)
    for _ in range(20):
        neg = valid_seeds[torch.randint(len(valid_seeds), (len(pairs), 2), generator=g)]
        loss = model(pairs[:, 0], pairs[:, 1], neg)
        opt.zero_grad()
        loss.backward()
        opt.step()

    emb = model.export_embedding(valid_seeds)
    print("exported embedding:", tuple(emb.shape))
