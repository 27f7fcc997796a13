import torch


class ConfusionMatrixCallback:
    def __init__(self, classes):
        self.classes = classes
        self.n = len(classes)
        self.cm = None

    def on_epoch_begin(self):
        self.cm = torch.zeros(self.n, self.n, dtype=torch.long)

    def on_batch_end(self, last_output, last_target):
        preds = last_output.argmax(-1).view(-1)
        targs = last_target.view(-1)
        self.cm[targs, preds] += 1

    def on_epoch_end(self):
        per_class = self.cm.diag().float() / self.cm.sum(1).clamp(min=1).float()
        return {name: round(acc.item(), 3) for name, acc in zip(self.classes, per_class)}


def run_validation(model, batches, callback):
    callback.on_epoch_begin()
    for xb, yb in batches:
        callback.on_batch_end(model(xb), yb)
    return callback.on_epoch_end()


def make_batches(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    return [(torch.randn(cfg["bs"], cfg["features"], generator=g),
             torch.randint(0, len(cfg["classes"]), (cfg["bs"],), generator=g))
            for _ in range(cfg["num_batches"])]


if __name__ == "__main__":
    cfg = {"seed": 0, "bs": 64, "features": 8, "num_batches": 5, "classes": ["cat", "dog", "bird"]}
    torch.manual_seed(0)
    model = torch.nn.Linear(cfg["features"], len(cfg["classes"]))
    cb = ConfusionMatrixCallback(cfg["classes"])
    with torch.no_grad():
        report = run_validation(model, make_batches(cfg), cb)
    print("samples seen:", cfg["bs"] * cfg["num_batches"], "counted in matrix:", cb.cm.sum().item())
    print(report)
