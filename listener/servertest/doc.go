// Package servertest proves module listener against a real API server: the
// Service type of each class is accepted, the addresses are read from what
// the server allocated (node ports, a load balancer's status), and listener
// volumes are accepted under the restricted Pod Security profile.
package servertest
