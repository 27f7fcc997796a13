import torch
import torch.nn as nn


def _verify_select_column(output, target):
    return output[(slice(None), target)]


def _select_targets(output, target):
    if target is None:
        return output
    num_examples = output.shape[0]
    dims = len(output.shape)
    if isinstance(target, int):
        return _verify_select_column(output, target)
    elif isinstance(target, torch.Tensor):
        if torch.numel(target) == 1:
            return _verify_select_column(output, int(target.item()))
        elif len(target.shape) == 1 and torch.numel(target) == num_examples:
            assert dims == 2, "Output must be 2D to select tensor of targets."
            return torch.gather(output, 1, target.reshape(len(output), 1))
    raise AssertionError(f"Target type {type(target)} is not valid.")


def _run_forward(forward_func, inputs, target=None):
    return _select_targets(forward_func(inputs), target)


def integrated_gradients(forward_func, inputs, baselines, target, n_steps):
    alphas = torch.linspace(0, 1, n_steps)
    total_grads = torch.zeros_like(inputs)
    for alpha in alphas:
        scaled = (baselines + alpha * (inputs - baselines)).requires_grad_()
        out = _run_forward(forward_func, scaled, target)
        total_grads += torch.autograd.grad(out.sum(), scaled)[0]
    return (inputs - baselines) * total_grads / n_steps


def compute_convergence_delta(forward_func, attributions, baselines, inputs, target):
    with torch.no_grad():
        start_out = _run_forward(forward_func, baselines, target)
        end_out = _run_forward(forward_func, inputs, target)
    return attributions.sum(dim=1) - (end_out - start_out)


def build_setup(cfg):
    torch.manual_seed(cfg["seed"])
    model = nn.Linear(cfg["in_features"], cfg["num_classes"])
    inputs = torch.randn(cfg["batch"], cfg["in_features"])
    targets = torch.randint(0, cfg["num_classes"], (cfg["batch"],))
    return model, inputs, torch.zeros_like(inputs), targets


if __name__ == "__main__":
    cfg = {"seed": 0, "in_features": 5, "num_classes": 4, "batch": 6, "n_steps": 20}
    model, inputs, baselines, targets = build_setup(cfg)
    attr = integrated_gradients(model, inputs, baselines, targets, cfg["n_steps"])
    delta = compute_convergence_delta(model, attr, baselines, inputs, targets)
    ref = []
    for i in range(cfg["batch"]):
        t = int(targets[i])
        with torch.no_grad():
            diff = model(inputs[i:i + 1])[0, t] - model(baselines[i:i + 1])[0, t]
        ref.append(float(attr[i].sum()) - float(diff))
    print("delta shape:", tuple(delta.shape), "max |delta|:", delta.abs().max().item(),
          "loop reference max |delta|:", max(abs(r) for r in ref))
