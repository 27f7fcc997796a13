import torch
import torch.nn as nn
import torch.nn.functional as F


def convert_to_weights(indices_tuple, labels):
    """Weight each query sample by how often the miner picked it."""
    weights = torch.zeros(labels.size(0))
    if indices_tuple is None or all(len(x) == 0 for x in indices_tuple):
        return weights + 1
    indices, counts = torch.unique(torch.cat(indices_tuple), return_counts=True)
    weights[indices] = counts.float() / counts.max()
    return weights


class PairMarginMiner:
    def __init__(self, pos_margin, neg_margin):
        self.pos_margin = pos_margin
        self.neg_margin = neg_margin

    def __call__(self, query, labels, ref, ref_labels):
        dist = torch.cdist(query, ref)
        same = labels.unsqueeze(1) == ref_labels.unsqueeze(0)
        a1, p = torch.where(same & (dist > self.pos_margin))
        a2, n = torch.where(~same & (dist < self.neg_margin))
        return a1, p, a2, n


class NCALoss(nn.Module):
    def __init__(self, softmax_scale=1.0):
        super().__init__()
        self.softmax_scale = softmax_scale

    def forward(self, query, labels, ref, ref_labels, indices_tuple):
        miner_weights = convert_to_weights(indices_tuple, labels)
        logits = -torch.cdist(query, ref).pow(2) * self.softmax_scale
        same = (labels.unsqueeze(1) == ref_labels.unsqueeze(0)).float()
        log_p = F.log_softmax(logits, dim=1)
        per_sample = -torch.logsumexp(log_p + torch.log(same + 1e-12), dim=1)
        return (per_sample * miner_weights).mean()


class CrossBatchMemory(nn.Module):
    def __init__(self, loss, miner, embedding_size, memory_size):
        super().__init__()
        self.loss = loss
        self.miner = miner
        self.register_buffer("embedding_memory", torch.zeros(memory_size, embedding_size))
        self.register_buffer("label_memory", torch.zeros(memory_size, dtype=torch.long))
        self.memory_size = memory_size
        self.queue_idx = 0
        self.has_been_filled = False

    def add_to_memory(self, embeddings, labels):
        idx = (torch.arange(embeddings.size(0)) + self.queue_idx) % self.memory_size
        self.embedding_memory[idx] = embeddings.detach()
        self.label_memory[idx] = labels
        self.queue_idx = (self.queue_idx + embeddings.size(0)) % self.memory_size
        self.has_been_filled = self.has_been_filled or self.queue_idx == 0

    def forward(self, embeddings, labels):
        self.add_to_memory(embeddings, labels)
        end = self.memory_size if self.has_been_filled else self.queue_idx
        ref, ref_labels = self.embedding_memory[:end], self.label_memory[:end]
        indices_tuple = self.miner(embeddings, labels, ref, ref_labels)
        return self.loss(embeddings, labels, ref, ref_labels, indices_tuple)


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16))
    criterion = CrossBatchMemory(NCALoss(), PairMarginMiner(0.2, 0.8), embedding_size=16, memory_size=96)
    for step in range(4):
        x = torch.randn(24, 32)
        y = torch.randint(0, 6, (24,))
        emb = F.normalize(encoder(x), dim=1)
        loss = criterion(emb, y)
        print("step", step, "loss", round(loss.item(), 4))
