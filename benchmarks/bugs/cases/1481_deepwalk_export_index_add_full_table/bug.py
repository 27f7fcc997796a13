import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class WalkDataset:
    def __init__(self, edges, num_nodes, walk_length, walks_per_node, seed=0):
        rng = random.Random(seed)
        adj = {n: [] for n in range(num_nodes)}
        for u, v in edges:
            adj[u].append(v)
            adj[v].append(u)
        self.num_nodes = num_nodes
        self.valid_seeds = [n for n in range(num_nodes) if adj[n]]
        self.walks = []
        for _ in range(walks_per_node):
            for start in self.valid_seeds:
                walk = [start]
                while len(walk) < walk_length:
                    walk.append(rng.choice(adj[walk[-1]]))
                self.walks.append(walk)


class SkipGramModel(nn.Module):
    def __init__(self, emb_size, emb_dimension, negative=2, norm=True):
        super().__init__()
        self.emb_size, self.emb_dimension = emb_size, emb_dimension
        self.negative, self.norm = negative, norm
        self.u_embeddings = nn.Embedding(emb_size, emb_dimension)
        self.v_embeddings = nn.Embedding(emb_size, emb_dimension)
        nn.init.uniform_(self.u_embeddings.weight, -0.5 / emb_dimension, 0.5 / emb_dimension)
        nn.init.zeros_(self.v_embeddings.weight)

    def forward(self, pos_u, pos_v, neg_v):
        emb_u = self.u_embeddings(pos_u)
        score = (emb_u * self.v_embeddings(pos_v)).sum(-1)
        neg_score = torch.bmm(self.v_embeddings(neg_v), emb_u.unsqueeze(2)).squeeze(2)
        return -(F.logsigmoid(score) + F.logsigmoid(-neg_score).sum(1)).mean()

    def save_embedding_pt(self, dataset, file_name=None):
        embedding = torch.zeros_like(self.u_embeddings.weight.cpu().data)
        valid_seeds = torch.LongTensor(dataset.valid_seeds)
        valid_embedding = self.u_embeddings.weight.cpu().data.index_select(0, valid_seeds)
        embedding.index_add_(0, valid_seeds, self.u_embeddings.weight.cpu().data)
        if self.norm:
            embedding /= torch.sqrt(torch.sum(embedding.mul(embedding), 1) + 1e-6).unsqueeze(1)
        if file_name is not None:
            torch.save(embedding, file_name)
        return embedding


def skipgram_pairs(walks, window):
    pairs = []
    for walk in walks:
        for i, u in enumerate(walk):
            for j in range(max(0, i - window), min(len(walk), i + window + 1)):
                if j != i:
                    pairs.append((u, walk[j]))
    return torch.tensor(pairs)


def train(model, dataset, epochs=20, window=2, lr=0.5):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    pairs = skipgram_pairs(dataset.walks, window)
    seeds = torch.tensor(dataset.valid_seeds)
    for _ in range(epochs):
        neg = seeds[torch.randint(len(seeds), (pairs.shape[0], model.negative))]
        loss = model(pairs[:, 0], pairs[:, 1], neg)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    # node 5 and node 9 are isolated (never appear in a walk)
    edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (6, 7), (7, 8), (8, 6), (2, 6)]
    dataset = WalkDataset(edges, num_nodes=10, walk_length=6, walks_per_node=4)
    model = SkipGramModel(emb_size=10, emb_dimension=8)
    print("final loss:", train(model, dataset))
    emb = model.save_embedding_pt(dataset)
    print("exported embedding:", tuple(emb.shape))
