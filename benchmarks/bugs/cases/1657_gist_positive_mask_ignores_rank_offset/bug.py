import torch
import torch.nn as nn
import torch.nn.functional as F


class GISTEmbedLoss(nn.Module):
    """Guided in-batch contrastive loss: a guide model suppresses likely false negatives.

    Args:
        temperature (float): softmax temperature.
        margin (float): absolute margin; candidates whose guided similarity exceeds the guided
            anchor-positive similarity minus ``margin`` are masked out, except the true positive.
    """

    def __init__(self, temperature=0.05, margin=0.1):
        super().__init__()
        self.temperature = temperature
        self.margin = margin

    @staticmethod
    def sim_matrix(a, b):
        return F.normalize(a, dim=-1) @ F.normalize(b, dim=-1).t()

    def forward(self, anchor, positive, anchor_guide, positive_guide, rank=0):
        """Loss for this rank's anchors against the candidates gathered from every rank.

        Args:
            anchor (Tensor): (B, D) embeddings of this rank's anchors.
            positive (Tensor): (W * B, D) positives gathered from all W ranks, rank-major.
            anchor_guide (Tensor): (B, Dg) guide embeddings of the anchors.
            positive_guide (Tensor): (W * B, Dg) guide embeddings of the gathered positives.
            rank (int): this process' rank; its own positives start at row rank * B.

        Returns:
            Tensor: scalar cross-entropy loss.
        """
        batch_size = anchor.size(0)
        offset = rank * batch_size

        ap_sim = self.sim_matrix(anchor, positive)  # (B, W * B)
        guided_ap_sim = self.sim_matrix(anchor_guide, positive_guide)  # (B, W * B)
        guided_sim = guided_ap_sim.diagonal(offset=offset).view(-1, 1)  # (B, 1)

        mask = guided_ap_sim > (guided_sim - self.margin)
        rows = torch.arange(batch_size, device=anchor.device)
        positive_mask = torch.zeros_like(mask)
        positive_mask[rows, rows] = True
        mask = mask & ~positive_mask
        ap_sim = ap_sim.masked_fill(mask, float("-inf"))

        labels = torch.arange(offset, offset + batch_size, device=anchor.device)
        return F.cross_entropy(ap_sim / self.temperature, labels)


def reference_loss(anchor, positive, anchor_guide, positive_guide, rank, temperature, margin):
    b = anchor.size(0)
    total = 0.0
    for i in range(b):
        own = rank * b + i
        a, ag = F.normalize(anchor[i], dim=0), F.normalize(anchor_guide[i], dim=0)
        g_pos = float(ag @ F.normalize(positive_guide[own], dim=0))
        logits = []
        for j in range(positive.size(0)):
            g = float(ag @ F.normalize(positive_guide[j], dim=0))
            if j != own and g > g_pos - margin:
                logits.append(float("-inf"))
            else:
                logits.append(float(a @ F.normalize(positive[j], dim=0)) / temperature)
        total += -(torch.tensor(logits).log_softmax(0)[own])
    return total / b


if __name__ == "__main__":
    torch.manual_seed(0)
    world_size, batch_size, dim = 2, 6, 16
    # what all_gather_with_grad would return on every rank: positives of rank 0, then rank 1
    positive = torch.randn(world_size * batch_size, dim)
    positive_guide = positive + 0.1 * torch.randn_like(positive)
    rank = 1
    anchor = positive[rank * batch_size : (rank + 1) * batch_size] + 0.5 * torch.randn(batch_size, dim)
    anchor_guide = anchor + 0.1 * torch.randn_like(anchor)
    loss_fn = GISTEmbedLoss()
    loss = loss_fn(anchor, positive, anchor_guide, positive_guide, rank=rank)
    ref = reference_loss(anchor, positive, anchor_guide, positive_guide, rank, loss_fn.temperature, loss_fn.margin)
    print(f"rank {rank} loss:", loss.item(), "reference:", float(ref))
