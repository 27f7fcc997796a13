import torch
import torch.nn.functional as F


def spline_parameters(raw, left=-3.0, bottom=-2.0, width=6.0, height=4.0):
    """Map raw network outputs to bin sizes of a monotone piecewise-linear spline.

    Args:
        raw: (N, 2 * K) unconstrained outputs, first half widths, second half heights
    Returns:
        dict with "left" (N, 1), "bottom" (N, 1), "widths" (N, K), "heights" (N, K)
    """
    w_raw, h_raw = raw.chunk(2, dim=-1)
    n = raw.shape[0]
    return {
        "left": torch.full((n, 1), left),
        "bottom": torch.full((n, 1), bottom),
        "widths": width * F.softmax(w_raw, dim=-1),
        "heights": height * F.softmax(h_raw, dim=-1),
    }


def knots(params):
    """Cumulative bin edges.

    Args:
        params: see spline_parameters
    Returns:
        knot_x, knot_y: (N, K + 1) bin edges along the input and output axis
    """
    knot_x = torch.cat([params["left"], params["left"] + params["widths"].cumsum(-1)], dim=-1)
    knot_y = torch.cat([params["bottom"], params["bottom"] + params["heights"].cumsum(-1)], dim=-1)
    return knot_x, knot_y


def inverse_binned_spline(y, params):
    """Invert the spline; values outside the spline domain pass through unchanged.

    Args:
        y: (N,) outputs of the forward spline, one scalar per row of params
        params: see spline_parameters
    Returns:
        x: (N,) inputs such that spline(x) == y inside the domain
    """
    knot_x, knot_y = knots(params)
    inside = (knot_y[:, 0] < y) & (y <= knot_y[:, -1])
    kx, ky, y_in = knot_x[inside], knot_y[inside], y[inside]
    upper = torch.searchsorted(ky, y_in[:, None])
    lower = upper - 1
    x_lo = torch.gather(kx, -1, lower).squeeze(-1)
    x_hi = torch.gather(kx, -1, upper).squeeze(-1)
    y_lo = torch.gather(ky, -1, lower).squeeze(-1)
    y_hi = torch.gather(ky, -1, upper).squeeze(-1)
    x = y.clone()
    x[inside] = x_lo + (y_in - y_lo) / (y_hi - y_lo) * (x_hi - x_lo)
    return x


if __name__ == "__main__":
    torch.manual_seed(0)
    num_bins, batch = 8, 256
    params = spline_parameters(torch.randn(batch, 2 * num_bins))
    y = torch.empty(batch).uniform_(-4.0, 4.0)
    x = inverse_binned_spline(y, params)

    knot_x, knot_y = knots(params)
    ref = y.clone()
    for n in range(batch):
        if not (knot_y[n, 0] < y[n] <= knot_y[n, -1]):
            continue
        k = 0
        while y[n] > knot_y[n, k + 1]:
            k += 1
        t = (y[n] - knot_y[n, k]) / (knot_y[n, k + 1] - knot_y[n, k])
        ref[n] = knot_x[n, k] + t * (knot_x[n, k + 1] - knot_x[n, k])
    assert torch.allclose(x, ref, atol=1e-5)
    print("ok")
