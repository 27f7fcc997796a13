import torch
import torch.nn as nn
import torch.nn.functional as F


class PixelContrastMemoryLoss(nn.Module):
    """Supervised pixel-to-memory contrast: anchors sampled per class, contrasted with a class memory bank."""

    def __init__(self, temperature=0.1, base_temperature=0.07):
        super().__init__()
        self.temperature = temperature
        self.base_temperature = base_temperature

    @staticmethod
    def _flatten_bank(bank):
        # bank: [C, M, D] -> features [C*M, D], labels [C*M, 1]
        num_classes, slots, dim = bank.shape
        feats = bank.reshape(num_classes * slots, dim)
        labels = torch.arange(num_classes).repeat_interleave(slots).view(-1, 1)
        return feats, labels

    def _anchor_to_bank_loss(self, anchors, anchor_labels, bank):
        # anchors: [A, V, D] (V sampled pixels per anchor class), anchor_labels: [A]
        num_anchors, views = anchors.shape[0], anchors.shape[1]
        anchor_feats = anchors.transpose(0, 1).reshape(-1, anchors.shape[-1])  # [V*A, D], view-major
        bank_feats, bank_labels = self._flatten_bank(bank)  # [C*M, D], [C*M, 1]

        pos_mask = (anchor_labels.view(-1, 1) == bank_labels.T).float()  # [A, C*M]
        pos_mask = pos_mask.repeat(views, 1)  # [V*A, C*M]
        neg_mask = 1.0 - pos_mask
        logits = anchor_feats @ bank_feats.T / self.temperature  # [V*A, C*M]
        logits = logits - logits.max(dim=1, keepdim=True).values.detach()

        # drop each anchor's similarity with itself
        self_mask = torch.ones_like(pos_mask).scatter_(1, torch.arange(num_anchors * views).view(-1, 1), 0)
        pos_mask = pos_mask * self_mask

        neg_sum = (logits.exp() * neg_mask).sum(dim=1, keepdim=True)  # [V*A, 1]
        log_prob = logits - torch.log(logits.exp() + neg_sum)  # [V*A, C*M]
        pos_log_prob = (pos_mask * log_prob).sum(dim=1) / pos_mask.sum(dim=1)  # [V*A]
        return (-(self.temperature / self.base_temperature) * pos_log_prob).mean()

    def forward(self, anchors, anchor_labels, bank):
        return self._anchor_to_bank_loss(F.normalize(anchors, dim=-1), anchor_labels, F.normalize(bank, dim=-1))


if __name__ == "__main__":
    torch.manual_seed(0)
    # 2 images x 3 valid classes -> 6 anchors, 2 pixels each; 5 classes x 2 memory slots
    anchors = torch.randn(6, 2, 16)
    labels = torch.tensor([0, 2, 4, 1, 2, 3])
    bank = torch.randn(5, 2, 16)
    loss = PixelContrastMemoryLoss()(anchors, labels, bank)
    print("contrast loss:", loss.item())
