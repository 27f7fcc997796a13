import torch as th
import torch.nn as nn


class QNetTwin(nn.Module):
    def __init__(self, state_dim, action_dim, hidden=32):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(state_dim, hidden), nn.ReLU())
        self.q1 = nn.Linear(hidden, action_dim)
        self.q2 = nn.Linear(hidden, action_dim)

    def get_q1_q2(self, state):
        h = self.enc(state)
        return self.q1(h), self.q2(h)

    def get_action(self, state, explore_rate):
        if th.rand(1).item() > explore_rate:
            return th.min(*self.get_q1_q2(state)).argmax(dim=1, keepdim=True)
        return th.randint(self.q1.out_features, size=(state.shape[0], 1))


class ReplayBuffer:
    def __init__(self, horizon_len, num_seqs, state_dim):
        self.states = th.zeros((horizon_len, num_seqs, state_dim), dtype=th.float32)
        self.actions = th.zeros((horizon_len, num_seqs, 1), dtype=th.int32)
        self.rewards = th.zeros((horizon_len, num_seqs), dtype=th.float32)
        self.undones = th.zeros((horizon_len, num_seqs), dtype=th.bool)
        self.next_states = th.zeros((horizon_len, num_seqs, state_dim), dtype=th.float32)

    def sample(self, batch_size):
        ids0 = th.randint(self.states.shape[0], size=(batch_size,))
        ids1 = th.randint(self.states.shape[1], size=(batch_size,))
        return (self.states[ids0, ids1], self.actions[ids0, ids1], self.rewards[ids0, ids1],
                self.undones[ids0, ids1].float(), self.next_states[ids0, ids1])


class AgentDoubleDQN:
    def __init__(self, state_dim, action_dim, gamma=0.99, lr=1e-3):
        self.cri = QNetTwin(state_dim, action_dim)
        self.cri_target = QNetTwin(state_dim, action_dim)
        self.cri_target.load_state_dict(self.cri.state_dict())
        self.optimizer = th.optim.Adam(self.cri.parameters(), lr=lr)
        self.criterion = nn.SmoothL1Loss(reduction="none")
        self.gamma = gamma

    def get_obj_critic(self, buffer, batch_size):
        with th.no_grad():
            state, action, reward, undone, next_state = buffer.sample(batch_size)
            next_q = th.min(*self.cri_target.get_q1_q2(next_state)).max(dim=1)[0]
            q_label = reward + undone * self.gamma * next_q
        q_value1, q_value2 = [qs.gather(dim=1, index=action.unsqueeze(1).long()).squeeze(1)
                              for qs in self.cri.get_q1_q2(state)]
        td_error = self.criterion(q_value1, q_label) + self.criterion(q_value2, q_label)
        return td_error.mean(), q_value1

    def update(self, buffer, batch_size):
        obj, q_value = self.get_obj_critic(buffer, batch_size)
        self.optimizer.zero_grad()
        obj.backward()
        self.optimizer.step()
        return obj.item()


def collect(agent, buffer, env_step):
    state = th.randn(buffer.states.shape[1], buffer.states.shape[2])
    for t in range(buffer.states.shape[0]):
        action = agent.cri.get_action(state, explore_rate=0.25)
        next_state, reward, done = env_step(state, action)
        buffer.states[t], buffer.actions[t] = state, action
        buffer.rewards[t], buffer.undones[t], buffer.next_states[t] = reward, ~done, next_state
        state = next_state


def toy_env_step(state, action):
    reward = (action.squeeze(-1) == (state[:, 0] > 0).long()).float()
    done = th.rand(state.shape[0]) < 0.05
    return th.randn_like(state), reward, done


if __name__ == "__main__":
    th.manual_seed(0)
    agent = AgentDoubleDQN(state_dim=6, action_dim=3)
    buffer = ReplayBuffer(horizon_len=64, num_seqs=4, state_dim=6)
    collect(agent, buffer, toy_env_step)
    for step in range(5):
        loss = agent.update(buffer, batch_size=32)
    print("critic loss:", loss)
