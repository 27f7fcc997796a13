import torch
import torch.nn as nn


class PrototypeMemory(nn.Module):
    def __init__(self, num_classes, dim, momentum=0.9):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("protos", torch.zeros(num_classes, dim))

    @torch.no_grad()
    def update(self, embeddings, labels):
        num_classes, dim = self.protos.shape
        index = labels.unsqueeze(1).expand(-1, dim)
        sums = torch.zeros_like(self.protos).scatter_add_(0, index, embeddings)
        counts = torch.bincount(labels, minlength=num_classes).clamp(min=1).unsqueeze(1)
        seen = torch.bincount(labels, minlength=num_classes).unsqueeze(1) > 0
        new = sums / counts
        self.protos.copy_(torch.where(seen, self.momentum * self.protos + (1 - self.momentum) * new, self.protos))


def semi_supervised_step(encoder, memory, images, labels, is_labelled):
    emb = encoder(images[is_labelled])
    memory.update(emb, labels[is_labelled])
    return emb


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Flatten(), nn.Linear(3 * 4 * 4, 8))
    memory = PrototypeMemory(num_classes=5, dim=8)
    images = torch.randn(16, 3, 4, 4)
    labels = torch.randint(0, 5, (16,))
    is_labelled = torch.arange(16) % 3 != 0
    emb = semi_supervised_step(encoder, memory, images, labels, is_labelled)
    kept = labels[is_labelled].tolist()
    for c in range(5):
        rows = [emb[i] for i, lab in enumerate(kept) if lab == c]
        if rows:
            expected = 0.1 * torch.stack(rows).sum(0) / len(rows)
        else:
            expected = torch.zeros(8)
        assert torch.allclose(memory.protos[c], expected, atol=1e-6)
    print("ok")
