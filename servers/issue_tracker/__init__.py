"""Issue tracker: projects with members, issues moving through a workflow, links, comments and sprints."""
