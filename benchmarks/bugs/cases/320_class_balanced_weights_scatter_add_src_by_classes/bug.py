import torch
import torch.nn as nn
import torch.nn.functional as F


class ClassBalancedCE(nn.Module):
    def __init__(self, num_classes, beta=0.99):
        super().__init__()
        self.num_classes = num_classes
        self.beta = beta

    def class_weights(self, labels):
        counts = torch.zeros(self.num_classes)
        counts.scatter_add_(0, labels, torch.ones(self.num_classes))
        effective = 1.0 - torch.pow(self.beta, counts)
        weights = (1.0 - self.beta) / effective.clamp_min(1e-8)
        return weights / weights.sum() * self.num_classes

    def forward(self, logits, labels):
        return F.cross_entropy(logits, labels, weight=self.class_weights(labels))


def main():
    torch.manual_seed(0)
    classifier = nn.Linear(12, 5)
    criterion = ClassBalancedCE(num_classes=5)
    features = torch.randn(40, 12)
    labels = torch.cat([torch.zeros(20, dtype=torch.long), torch.randint(1, 5, (20,))])
    loss = criterion(classifier(features), labels)
    print("class-balanced loss:", loss.item())


if __name__ == "__main__":
    main()
