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
    y_pred_proba = proba[torch.arange(proba.shape[0]), labels_pred]
    return labels, y_pred_proba


def count_uncertain(y_pred_proba, threshold=0.2):
    return int((y_pred_proba < threshold).sum())


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ComponentClassifier()
    feats = torch.randn(15, 20)
    labels, conf = label_components(model, feats)
    with torch.no_grad():
        proba = model(feats)
    assert conf.shape == (15,)
    for i in range(15):
        row = proba[i].tolist()
        best = max(range(len(row)), key=lambda c: row[c])
        assert labels[i] == CLASSES[best]
        assert abs(conf[i].item() - row[best]) < 1e-7
    assert count_uncertain(conf) == sum(1 for i in range(15) if conf[i].item() < 0.2)
    print("ok")
