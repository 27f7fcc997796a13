import torch


def load_table(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    table = torch.randn(cfg["rows"], len(cfg["columns"]), generator=g)
    sensor_down = torch.rand(cfg["rows"], generator=g) < cfg["dropout_rate"]
    col = cfg["columns"].index(cfg["flaky_column"])
    table[sensor_down, col] = float("nan")
    return table, sensor_down


def impute_flaky_column(table, sensor_down, cfg):
    col = cfg["columns"].index(cfg["flaky_column"])
    healthy = table[~sensor_down, col]
    fill = healthy.mean()
    table[sensor_down, col] = fill
    return table


if __name__ == "__main__":
    cfg = {
        "seed": 0,
        "rows": 200,
        "columns": ["temp", "humidity", "pressure", "wind"],
        "flaky_column": "pressure",
        "dropout_rate": 0.15,
    }
    table, sensor_down = load_table(cfg)
    expected = table.clone()
    col = cfg["columns"].index(cfg["flaky_column"])
    mean = sum(float(expected[i, col]) for i in range(cfg["rows"]) if not sensor_down[i]) / int((~sensor_down).sum())
    for i in range(cfg["rows"]):
        if sensor_down[i]:
            expected[i, col] = mean
    table = impute_flaky_column(table, sensor_down, cfg)
    assert not table.isnan().any()
    assert torch.allclose(table, expected, atol=1e-6)
    print("ok")
