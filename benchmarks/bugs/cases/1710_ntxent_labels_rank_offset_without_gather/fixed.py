import os

import torch
import torch.nn.functional as F


def get_rank():
    """Rank of this process in the DDP job (what torch.distributed.get_rank() reports)."""
    return int(os.environ.get("RANK", "0"))


class NTXentLoss(torch.nn.Module):
    def __init__(self, temperature: float = 0.5, gather_distributed: bool = False):
        super().__init__()
        self.temperature = temperature
        self.gather_distributed = gather_distributed

    def forward(self, out0: torch.Tensor, out1: torch.Tensor) -> torch.Tensor:
        """Forward pass through the contrastive cross-entropy loss.

        Args:
            out0: Output projections of the first set of transformed images.
                Shape: (batch_size, embedding_size)
            out1: Output projections of the second set of transformed images.
                Shape: (batch_size, embedding_size)

        Returns:
            Contrastive cross-entropy loss averaged over the 2 * batch_size views.
        """
        batch_size, _ = out0.shape
        z0, z1 = F.normalize(out0, dim=1), F.normalize(out1, dim=1)
        # candidates are this rank's views only unless gather_distributed is set
        cand0, cand1 = z0, z1
        not_self = ~torch.eye(batch_size, dtype=torch.bool, device=out0.device)
        # each row: [similarity to all views of the other augmentation | same augmentation minus itself]
        rows0 = torch.cat([z0 @ cand1.T, (z0 @ cand0.T)[not_self].view(batch_size, -1)], dim=1)
        rows1 = torch.cat([z1 @ cand0.T, (z1 @ cand1.T)[not_self].view(batch_size, -1)], dim=1)
        logits = torch.cat([rows0, rows1], dim=0) / self.temperature
        labels = torch.arange(batch_size, device=out0.device, dtype=torch.long)
        if self.gather_distributed:
            labels = labels + get_rank() * batch_size
        labels = labels.repeat(2)
        log_probs = F.log_softmax(logits, dim=1)
        return -log_probs.gather(1, labels.unsqueeze(1)).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    os.environ["RANK"] = "1"  # second replica of a 2-GPU DDP run
    criterion = NTXentLoss(temperature=0.5, gather_distributed=False)
    z0, z1 = torch.randn(4, 32), torch.randn(4, 32)
    loss = criterion(z0, z1)
    a, b = F.normalize(z0, dim=1), F.normalize(z1, dim=1)
    views = torch.cat([a, b])
    terms = []
    for i in range(8):
        pos = (i + 4) % 8
        sims = torch.stack([views[i] @ views[j] / 0.5 for j in range(8) if j != i])
        terms.append(torch.logsumexp(sims, 0) - views[i] @ views[pos] / 0.5)
    ref = torch.stack(terms).mean()
    assert torch.allclose(loss, ref, atol=1e-5)
    print("ok")
