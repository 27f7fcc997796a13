import torch
import torch.nn.functional as F
from torch.nn.modules.loss import _Loss


class GeneralizedWassersteinDiceLoss(_Loss):
    """Generalised Wasserstein Dice loss (Fidon et al., BrainLes 2017).

    Args:
        dist_matrix (Tensor): (C, C) distances between classes, zero on the diagonal.
        weighting_mode (str): ``"default"`` (alpha = 0 for background, 1 otherwise) or
            ``"GDL"`` (alpha = inverse class volume, as in the generalised Dice loss).
        smooth_nr (float): added to the numerator.
        smooth_dr (float): added to the denominator.

    Shapes:
        input: (B, C, H, W[, D]) unnormalised scores.
        target: (B, 1, H, W[, D]) integer label map.
    """

    def __init__(self, dist_matrix, weighting_mode="default", smooth_nr=1e-5, smooth_dr=1e-5):
        super().__init__()
        self.m = torch.as_tensor(dist_matrix, dtype=torch.float32)
        self.num_classes = self.m.size(0)
        self.weighting_mode = weighting_mode
        self.smooth_nr = smooth_nr
        self.smooth_dr = smooth_dr

    def forward(self, input, target):
        flat_input = input.reshape(input.size(0), input.size(1), -1)
        flat_target = target.reshape(target.size(0), -1).long()
        probs = F.softmax(flat_input, dim=1)
        wass_dist_map = self.wasserstein_distance_map(probs, flat_target)
        alpha = self._compute_alpha(flat_target)

        true_pos = self._compute_generalized_true_positive(alpha, flat_target, wass_dist_map)
        if self.weighting_mode == "GDL":
            denom = self._compute_denominator(alpha, flat_target, wass_dist_map)
        else:
            denom = 2 * true_pos + wass_dist_map.sum(dim=1)

        wass_dice = (2.0 * true_pos + self.smooth_nr) / (denom + self.smooth_dr)
        return (1.0 - wass_dice).mean()

    def wasserstein_distance_map(self, flat_proba, flat_target):
        """
        Args:
            flat_proba (Tensor): (B, C, S) class probabilities.
            flat_target (LongTensor): (B, S) labels.

        Returns:
            Tensor: (B, S) Wasserstein distance between the predicted distribution and the label.
        """
        b, c, s = flat_proba.shape
        m = self.m.to(flat_proba.device)
        m_rows = m.index_select(0, flat_target.reshape(-1)).view(b, s, c).permute(0, 2, 1)
        return (m_rows * flat_proba).sum(dim=1)

    def _compute_generalized_true_positive(self, alpha, flat_target, wasserstein_distance_map):
        """
        Args:
            alpha (Tensor): (B, C) per-class weights.
            flat_target (LongTensor): (B, S) labels.
            wasserstein_distance_map (Tensor): (B, S).

        Returns:
            Tensor: (B,) generalised number of true positives.
        """
        alpha_extended = alpha.unsqueeze(2).expand(-1, -1, flat_target.size(1))
        alpha_extended = torch.gather(alpha_extended, dim=1, index=flat_target.unsqueeze(1))
        return torch.sum(alpha_extended * (1.0 - wasserstein_distance_map), dim=[1, 2])

    def _compute_denominator(self, alpha, flat_target, wasserstein_distance_map):
        """
        Args:
            alpha (Tensor): (B, C) per-class weights.
            flat_target (LongTensor): (B, S) labels.
            wasserstein_distance_map (Tensor): (B, S).

        Returns:
            Tensor: (B,) generalised "all error" denominator.
        """
        alpha_extended = alpha.unsqueeze(2).expand(-1, -1, flat_target.size(1))
        alpha_extended = torch.gather(alpha_extended, dim=1, index=flat_target.unsqueeze(1))
        return torch.sum(alpha_extended * (2.0 - wasserstein_distance_map), dim=[1, 2])

    def _compute_alpha(self, flat_target):
        """
        Args:
            flat_target (LongTensor): (B, S) labels.

        Returns:
            Tensor: (B, C) class weights.
        """
        if self.weighting_mode == "GDL":
            volumes = F.one_hot(flat_target, self.num_classes).sum(dim=1).float()
            return 1.0 / (volumes + 1.0)
        alpha = torch.ones(flat_target.size(0), self.num_classes, device=flat_target.device)
        alpha[:, 0] = 0.0
        return alpha


def reference_loss(logits, target, m, smooth=1e-5):
    probs = F.softmax(logits.reshape(logits.size(0), logits.size(1), -1), dim=1)
    labels = target.reshape(target.size(0), -1)
    n_cls = m.size(0)
    losses = []
    for b in range(labels.size(0)):
        counts = [0] * n_cls
        for y in labels[b].tolist():
            counts[y] += 1
        tp, den = 0.0, 0.0
        for s in range(labels.size(1)):
            y = int(labels[b, s])
            w = sum(float(m[y, c]) * float(probs[b, c, s]) for c in range(n_cls))
            a = 1.0 / (counts[y] + 1.0)
            tp += a * (1.0 - w)
            den += a * (2.0 - w)
        losses.append(1.0 - (2.0 * tp + smooth) / (den + smooth))
    return sum(losses) / len(losses)


if __name__ == "__main__":
    torch.manual_seed(0)
    dist = torch.tensor([[0.0, 1.0, 1.0, 1.0],
                         [1.0, 0.0, 0.5, 0.7],
                         [1.0, 0.5, 0.0, 0.6],
                         [1.0, 0.7, 0.6, 0.0]])
    criterion = GeneralizedWassersteinDiceLoss(dist, weighting_mode="GDL")
    logits = torch.randn(3, 4, 8, 8)
    target = torch.randint(0, 4, (3, 1, 8, 8))
    target[0, :, 2:, :] = 0  # first scan is mostly background
    loss = criterion(logits, target)
    print("GWDL (batch of 3):", round(loss.item(), 4))
    print("per-sample reference:", round(reference_loss(logits, target, dist), 4))
