import torch
import torch.nn as nn


def mlp(sizes):
    layers = []
    for i in range(len(sizes) - 1):
        layers += [nn.Linear(sizes[i], sizes[i + 1]), nn.ReLU()]
    return nn.Sequential(*layers[:-1])


class MPDQN(nn.Module):
    """Multi-pass P-DQN for parameterised actions: one Q pass per discrete action, each pass seeing
    only the continuous arguments of its own action."""

    def __init__(self, cfg):
        super().__init__()
        self.num_types = cfg["action_type_shape"]
        self.args_per_type = cfg["action_args_shape"]
        hidden = cfg["hidden"]
        total_args = self.num_types * self.args_per_type
        self.actor = nn.Sequential(mlp([cfg["obs_shape"], hidden, total_args]), nn.Tanh())
        self.q_net = mlp([cfg["obs_shape"] + total_args, hidden, self.num_types])
        slots = torch.arange(total_args).view(self.num_types, self.args_per_type)
        self.register_buffer("arg_slots", slots)

    def compute_continuous(self, state):
        return {"action_args": self.actor(state)}

    def compute_discrete(self, inputs):
        state, action_args = inputs["state"], inputs["action_args"]
        lead_shape = state.shape[:-1]
        state = state.reshape(-1, state.shape[-1])
        action_args = action_args.reshape(-1, action_args.shape[-1])
        batch = state.shape[0]
        args = action_args.view(*action_args.shape[:-1], self.num_types, self.args_per_type)
        mp_action = torch.zeros(*state.shape[:-1], self.num_types, self.num_types * self.args_per_type)
        index = self.arg_slots.unsqueeze(0).expand(batch, -1, -1)
        mp_action.scatter_(dim=-1, index=index, src=args)
        mp_state = state.unsqueeze(-2).expand(*state.shape[:-1], self.num_types, state.shape[-1])
        q_all = self.q_net(torch.cat([mp_state, mp_action], dim=-1))
        logit = q_all.diagonal(dim1=-2, dim2=-1).reshape(*lead_shape, self.num_types)
        return {"logit": logit, "action_type": logit.argmax(-1)}

    def forward(self, inputs, mode):
        return getattr(self, mode)(inputs)


def rollout_batch(cfg, num_envs, horizon):
    torch.manual_seed(1)
    return torch.rand(horizon, num_envs, cfg["obs_shape"])


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"obs_shape": 10, "action_type_shape": 3, "action_args_shape": 2, "hidden": 16}
    model = MPDQN(cfg)
    obs = rollout_batch(cfg, num_envs=4, horizon=5)
    with torch.no_grad():
        action_args = model(obs, "compute_continuous")
        out = model({"state": obs, "action_args": action_args["action_args"]}, "compute_discrete")
        for t in range(5):
            for e in range(4):
                args = action_args["action_args"][t, e]
                for k in range(3):
                    x = [0.0] * 6
                    for p in range(2):
                        x[k * 2 + p] = args[k * 2 + p].item()
                    q = model.q_net(torch.cat([obs[t, e], torch.tensor(x)]))
                    assert abs(out["logit"][t, e, k].item() - q[k].item()) < 1e-5
    print("ok")
