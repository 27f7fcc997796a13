import torch
import torch.nn.functional as F


def split_dataset(X, y, train_frac=0.75):
    """Split along the sample axis.

    Args:
        X: (N, T, C) float time series.
        y: (N,) int64 class labels.
    Returns:
        (X_train, y_train), (X_test, y_test)
    """
    n_train = int(train_frac * X.size(0))
    return (X[:n_train], y[:n_train]), (X[n_train:], y[n_train:])


def prepare(X, y):
    (X_tr, y_tr), (X_te, y_te) = split_dataset(X, y)
    num_classes = len(torch.unique(y_tr))
    return (X_tr, y_tr), (X_te, y_te), num_classes


def encode_targets(y, num_classes):
    """One-hot targets.

    Args:
        y: (N,) int64 labels in [0, num_classes).
    Returns:
        (N, num_classes) float one-hot matrix.
    """
    return F.one_hot(y, num_classes=num_classes).float()


if __name__ == "__main__":
    torch.manual_seed(0)
    X = torch.randn(12, 20, 3)
    y = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 3, 1])
    (X_tr, y_tr), (X_te, y_te), num_classes = prepare(X, y)
    Y_tr = encode_targets(y_tr, num_classes)
    Y_te = encode_targets(y_te, num_classes)
    print("train", tuple(Y_tr.shape), "test", tuple(Y_te.shape))
