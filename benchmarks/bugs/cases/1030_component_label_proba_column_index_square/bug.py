import torch
import torch.nn as nn

CLASSES = ["brain", "muscle", "eye", "heart", "line_noise", "channel_noise", "other"]


class ComponentClassifier(nn.Module):
    def __init__(self, n_features=20):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, len(CLASSES)))

    def forward(self, feats):
        return self.net(feats).softmax(dim=-1)


def label_components(model, feats):
    """Label independent components.

    Args:
        model: classifier returning class probabilities of shape (n_components, n_classes).
        feats: component features of shape (n_components, n_features).

    Returns:
        labels: list of n_components class names.
        y_pred_proba: tensor of shape (n_components,), probability of the predicted class.
    """
    with torch.no_grad():
        proba = model(feats)
    labels_pred = proba.argmax(dim=1)
    labels = [CLASSES[i] for i in labels_pred.tolist()]
    y_pred_proba = proba[:, labels_pred]
    return labels, y_pred_proba


def count_uncertain(y_pred_proba, threshold=0.2):
    return int((y_pred_proba < threshold).sum())


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ComponentClassifier()
    feats = torch.randn(15, 20)
    labels, conf = label_components(model, feats)
    print("confidence shape", tuple(conf.shape))
    print("mean confidence", round(conf.mean().item(), 4))
    print("uncertain components", count_uncertain(conf), "of", feats.shape[0])
