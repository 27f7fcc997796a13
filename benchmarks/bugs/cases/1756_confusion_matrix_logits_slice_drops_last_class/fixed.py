import torch


class ConfusionMatrix:
    def __init__(self, num_classes=None):
        self._cm_tensor = None
        self._num_classes = num_classes

    @torch.no_grad()
    def update(self, true_y, predicted_y):
        max_label = -1 if self._num_classes is None else self._num_classes - 1
        if true_y.dim() == 2 and self._num_classes is not None:
            true_y = true_y[:, :max_label + 1]
        if predicted_y.dim() == 2 and self._num_classes is not None:
            predicted_y = predicted_y[:, :max_label + 1]

        if predicted_y.dim() > 1:
            if self._num_classes is None:
                max_label = max(max_label, predicted_y.shape[1] - 1)
            predicted_y = torch.max(predicted_y, 1)[1]
        if true_y.dim() > 1:
            true_y = torch.max(true_y, 1)[1]
        if self._num_classes is None:
            max_label = max(max_label, int(true_y.max()), int(predicted_y.max()))

        if self._cm_tensor is None:
            self._cm_tensor = torch.zeros(max_label + 1, max_label + 1, dtype=torch.long)
        self._cm_tensor.index_put_((true_y.long(), predicted_y.long()), torch.ones_like(true_y, dtype=torch.long), accumulate=True)

    def result(self):
        return self._cm_tensor


if __name__ == "__main__":
    torch.manual_seed(0)
    metric = ConfusionMatrix(num_classes=10)
    ref = [[0] * 10 for _ in range(10)]
    for _ in range(3):
        logits = torch.randn(64, 10)
        targets = torch.randint(0, 10, (64,))
        metric.update(targets, logits)
        for i in range(64):
            pred = max(range(10), key=lambda c: float(logits[i, c]))
            ref[int(targets[i])][pred] += 1
    cm = metric.result()
    assert cm.tolist() == ref
    print("ok")
