import torch
import torch.nn as nn
import torch.nn.functional as F


class BagOfEmbeddingsClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_labels, temperature=0.05):
        super().__init__()
        self.temperature = temperature
        self.embed = nn.Linear(vocab_size, embed_dim, bias=False)
        self.head = nn.Linear(embed_dim, num_labels)

    def forward(self, token_probs):
        return self.head(torch.tanh(self.embed(token_probs)).mean(dim=1)) / self.temperature


def cw_adv_loss(pred, label, kappa):
    other = pred.clone()
    other[:, label] = float("-inf")
    indices = other.argmax(dim=1, keepdim=True)
    margin = pred[:, label] - pred.gather(1, indices)
    adv_loss = (margin + kappa).clamp(min=0).mean()
    return adv_loss, margin


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BagOfEmbeddingsClassifier(vocab_size=50, embed_dim=32, num_labels=4)
    log_coeffs = torch.randn(4, 50) * 2
    samples = F.gumbel_softmax(log_coeffs.unsqueeze(0).repeat(10, 1, 1), tau=1.0, hard=True)
    pred = model(samples)
    label, kappa = 2, 2.0

    loss, margin = cw_adv_loss(pred, label, kappa)

    ref = 0.0
    for i in range(pred.size(0)):
        best_other = max(pred[i, c].item() for c in range(pred.size(1)) if c != label)
        ref += max(pred[i, label].item() - best_other + kappa, 0.0)
    ref /= pred.size(0)
    print("margin shape:", tuple(margin.shape))
    print("adv_loss:", round(loss.item(), 4), "reference:", round(ref, 4))
