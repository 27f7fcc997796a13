import torch
from torch import Tensor
from jaxtyping import Float, Int

TOTAL_ENERGY_KEY = "total_energy"
FORCE_KEY = "forces"
BATCH_KEY = "batch"


class RunningStats:
    def __init__(self, dim: tuple = ()):
        self.dim = dim
        self.reset()

    def reset(self):
        self._state = torch.zeros(self.dim)
        self._n = 0

    def accumulate_batch(self, batch: Float[Tensor, "n *dim"]) -> Float[Tensor, "*dim"]:
        batch_abs = batch.abs()
        self._state = self._state + batch_abs.sum(dim=0)
        self._n += batch.shape[0]
        return batch_abs.mean(dim=0)

    def current_result(self) -> Float[Tensor, "*dim"]:
        return self._state / max(self._n, 1)


def mae_error(pred: dict, ref: dict, key: str) -> Tensor:
    return pred[key] - ref[key]


class Metrics:
    def __init__(self, components):
        self.funcs = {}
        self.params = {}
        self.running_stats = {}
        for key, per_atom in components:
            self.funcs[key] = mae_error
            self.params[key] = {"PerAtom": per_atom}

    def init_runstat(self, error: Tensor) -> RunningStats:
        dim = tuple(error.shape[1:])
        if len(dim) == 0 or (len(dim) == 1 and dim[0] == 1):
            dim = ()
        return RunningStats(dim=dim)

    def __call__(self, pred: dict, ref: dict) -> dict:
        metrics = {}
        N = None
        for key, func in self.funcs.items():
            error = func(pred=pred, ref=ref, key=key)
            per_atom = self.params[key]["PerAtom"]

            if key not in self.running_stats:
                self.running_stats[key] = self.init_runstat(error)
            stat = self.running_stats[key]

            if per_atom:
                if N is None:
                    N: Int[Tensor, "graphs"] = torch.bincount(ref[BATCH_KEY])
                error_N = error / N
            else:
                error_N = error

            if stat.dim == ():
                metrics[key] = stat.accumulate_batch(error_N.flatten())
            else:
                metrics[key] = stat.accumulate_batch(error_N)
        return metrics

    def current_result(self) -> dict:
        return {k: s.current_result() for k, s in self.running_stats.items()}


def make_batch(num_atoms: list[int], gen: torch.Generator):
    batch: Int[Tensor, "atoms"] = torch.cat([torch.full((n,), i) for i, n in enumerate(num_atoms)])
    ref = {
        TOTAL_ENERGY_KEY: torch.randn(len(num_atoms), 1, generator=gen) * 10.0,
        FORCE_KEY: torch.randn(len(batch), 3, generator=gen),
        BATCH_KEY: batch,
    }
    pred = {
        TOTAL_ENERGY_KEY: ref[TOTAL_ENERGY_KEY] + torch.randn(len(num_atoms), 1, generator=gen),
        FORCE_KEY: ref[FORCE_KEY] + 0.1 * torch.randn(len(batch), 3, generator=gen),
        BATCH_KEY: batch,
    }
    return pred, ref


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    metrics = Metrics([(TOTAL_ENERGY_KEY, True), (FORCE_KEY, False)])
    batches = [make_batch([3, 12, 7], gen), make_batch([20, 5, 9, 4], gen)]
    for pred, ref in batches:
        metrics(pred, ref)
    result = metrics.current_result()
    print("per-atom energy MAE:", round(result[TOTAL_ENERGY_KEY].item(), 5))
    print("force MAE:", [round(v, 5) for v in result[FORCE_KEY].tolist()])
