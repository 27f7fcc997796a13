import torch


class ReplayBuffer:
    def __init__(self, cfg):
        self.maxsize = cfg["size"]
        self.obs = torch.zeros(self.maxsize, cfg["obs_dim"])
        self.act = torch.zeros(self.maxsize, dtype=torch.long)
        self.rew = torch.zeros(self.maxsize)
        self.done = torch.zeros(self.maxsize, dtype=torch.long)
        self._index = 0

    def add(self, obs, act, rew, done):
        i = self._index
        self.obs[i], self.act[i], self.rew[i], self.done[i] = obs, act, rew, done
        self._index = (i + 1) % self.maxsize

    def get(self, indice, key):
        if key == "obs_next":
            return self.obs[indice.add_(1 - self.done[indice]).remainder_(self.maxsize)]
        return getattr(self, key)[indice]

    def sample(self, indice):
        return {key: self.get(indice, key) for key in ("obs", "obs_next", "act", "rew", "done")}


def collect(buf, cfg):
    for step in range(cfg["size"]):
        obs = torch.full((cfg["obs_dim"],), float(step))
        done = int(step % cfg["episode_len"] == cfg["episode_len"] - 1)
        buf.add(obs, step % cfg["num_actions"], 0.1 * step, done)


def td_targets(batch, q_next, gamma):
    return batch["rew"] + gamma * (1 - batch["done"]) * q_next


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"size": 64, "obs_dim": 4, "episode_len": 8, "num_actions": 3, "batch": 16}
    buf = ReplayBuffer(cfg)
    collect(buf, cfg)
    indice = torch.randint(0, cfg["size"], (cfg["batch"],))
    drawn = indice.tolist()
    batch = buf.sample(indice)
    target = td_targets(batch, batch["obs_next"].sum(-1), 0.99)

    ref_act, ref_target = [], []
    for i in drawn:
        j = i if buf.done[i] else (i + 1) % cfg["size"]
        ref_act.append(buf.act[i].item())
        q = buf.obs[j].sum().item()
        ref_target.append(buf.rew[i].item() + 0.99 * (1 - buf.done[i].item()) * q)
    ref_target = torch.tensor(ref_target)
    print("act mismatches vs drawn transitions:",
          sum(a != b for a, b in zip(batch["act"].tolist(), ref_act)), "of", cfg["batch"])
    print("max |td target - reference|:", (target - ref_target).abs().max().item())
