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

        # bank entries are never the anchors themselves, so there is no self-similarity to drop

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
    crit = PixelContrastMemoryLoss()
    loss = crit(anchors, labels, bank)

    xa, mem = F.normalize(anchors, dim=-1), F.normalize(bank, dim=-1)
    rows = []
    for v in range(2):
        for a in range(6):
            sims = [(xa[a, v] @ mem[c, m]).item() / 0.1 for c in range(5) for m in range(2)]
            bank_cls = [c for c in range(5) for m in range(2)]
            top = max(sims)
            sims = [s - top for s in sims]
            neg = sum(torch.tensor(s).exp().item() for s, c in zip(sims, bank_cls) if c != labels[a].item())
            pos_terms = [
                s - torch.log(torch.tensor(s).exp() + neg).item()
                for s, c in zip(sims, bank_cls) if c == labels[a].item()
            ]
            rows.append(-(0.1 / 0.07) * sum(pos_terms) / len(pos_terms))
    ref = sum(rows) / len(rows)
    assert abs(loss.item() - ref) < 1e-4, (loss.item(), ref)
    print("ok")
